-- Search keywords (docs/search-keywords.md): what buyers typed into a store's search, normalized
-- (lower case, single spaces), counted per store and hour. The storefront adds its counts in
-- batches; the seller reads the top queries and those that found nothing over a date range.

-- +goose Up
CREATE TABLE search_keywords (
    store_id   bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    hour       timestamptz NOT NULL,
    query      text        NOT NULL,
    -- searches of the hour, those of them that found nothing, and what the last one found.
    searches   integer     NOT NULL,
    no_results integer     NOT NULL,
    results    integer     NOT NULL,
    PRIMARY KEY (store_id, hour, query),
    CONSTRAINT search_keywords_query_check CHECK (length(query) BETWEEN 1 AND 100),
    CONSTRAINT search_keywords_counts_check CHECK (searches >= 1 AND no_results BETWEEN 0 AND searches AND results >= 0)
);

-- +goose Down
DROP TABLE search_keywords;
