// The page's own static files (its language tables, the games' card data): each read once.
// The one module besides net/api.js that fetches; it never calls the web API.
const loaded = new Map();

// A JSON file by its path from the site's root ("i18n/en.json", "data/harmonies-cards.json").
export function loadJson(path) {
  if (!loaded.has(path)) {
    const reading = fetch(new URL(`../../${path}`, import.meta.url)).then((resp) => {
      if (!resp.ok) throw new Error(`${path}: ${resp.status}`);
      return resp.json();
    });
    reading.catch(() => loaded.delete(path)); // a later call reads it again
    loaded.set(path, reading);
  }
  return loaded.get(path);
}
