// The games the table can draw, by the server's game name.
import * as harmonies from "./harmonies.js";
import * as livingForest from "./living_forest.js";

export const GAMES = { harmonies, "living-forest": livingForest };
