"""The features: bots, analysis (hints and reviews), clocks, social (leave, rematch, chat),
ratings and accounts. Each subscribes to the tables' events or is called by the API; they import
the domain and the storage below them, never the API above."""
