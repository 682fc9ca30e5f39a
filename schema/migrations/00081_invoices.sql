-- Invoices (docs/invoices.md): one per paid order, numbered per seller in the order they were issued
-- (INV-000001, INV-000002, ...). An invoice is a snapshot of the sale when it was paid; its PDF is
-- printed by the renderer and stored under pdf_key, empty until then.

-- +goose Up
CREATE TABLE invoice_numbers (
    seller_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    last      bigint NOT NULL
);

CREATE TABLE invoices (
    id        bigserial PRIMARY KEY,
    seller_id bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    order_id  bigint      NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    seq       bigint      NOT NULL,
    number    text        NOT NULL,
    issued_at timestamptz NOT NULL DEFAULT now(),
    pdf_key   text        NOT NULL DEFAULT '',
    -- pdf_round is the last round of printing queued (-1: none yet); a round is queued once.
    pdf_round bigint      NOT NULL DEFAULT -1,
    CONSTRAINT invoices_order_key UNIQUE (order_id),
    CONSTRAINT invoices_number_key UNIQUE (seller_id, seq),
    CONSTRAINT invoices_seq_check CHECK (seq > 0)
);

-- Orders paid before invoices existed get theirs now, numbered in the order they were placed.
INSERT INTO invoices (seller_id, order_id, seq, number, issued_at)
SELECT seller_id, id, n, 'INV-' || lpad(n::text, 6, '0'), created_at
FROM (SELECT seller_id, id, created_at, row_number() OVER (PARTITION BY seller_id ORDER BY created_at, id) AS n
      FROM orders WHERE payment_status IN ('paid', 'partially_refunded', 'refunded')) paid;
INSERT INTO invoice_numbers (seller_id, last)
SELECT seller_id, max(seq) FROM invoices GROUP BY seller_id;

-- +goose Down
DROP TABLE invoices;
DROP TABLE invoice_numbers;
