-- Trademarks (docs/domains.md, "Trademark check"): terms the operator keeps on a list. A campaign
-- whose name holds one is saved as usual, and the seller is warned. term is stored as matched:
-- lower case, words separated by single spaces.

-- +goose Up
CREATE TABLE trademarks (
    id         bigserial PRIMARY KEY,
    term       text        NOT NULL,
    note       text        NOT NULL DEFAULT '',
    created_by bigint REFERENCES users (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT trademarks_term_check CHECK (term <> '' AND term = lower(term) AND length(term) <= 100)
);
CREATE UNIQUE INDEX trademarks_term_key ON trademarks (term);

-- +goose Down
DROP TABLE trademarks;
