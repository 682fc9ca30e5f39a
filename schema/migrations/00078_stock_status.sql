-- Stock of the catalogue (docs/stock.md): which colours and sizes of each product template can be
-- made now, set by an admin for the whole platform. Only what is out of stock has a row (a new
-- colour or size is in stock until said otherwise); every change is kept in stock_status_changes
-- with who made it and when.

-- +goose Up
CREATE TABLE out_of_stock_variants (
    template_id bigint      NOT NULL REFERENCES product_templates (id) ON DELETE CASCADE,
    color       text        NOT NULL,
    size        text        NOT NULL,
    changed_by  bigint      REFERENCES users (id) ON DELETE SET NULL,
    changed_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (template_id, color, size)
);

CREATE TABLE stock_status_changes (
    id          bigserial PRIMARY KEY,
    template_id bigint      NOT NULL REFERENCES product_templates (id) ON DELETE CASCADE,
    color       text        NOT NULL,
    size        text        NOT NULL,
    in_stock    boolean     NOT NULL,
    changed_by  bigint      REFERENCES users (id) ON DELETE SET NULL,
    changed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stock_status_changes_time_idx ON stock_status_changes (changed_at DESC, id DESC);

-- +goose Down
DROP TABLE stock_status_changes;
DROP TABLE out_of_stock_variants;
