-- Fonts (docs/fonts.md): the platform fonts (seller_id NULL, files embedded in the binaries) and the
-- fonts sellers upload. family, style, full_name and weight are read from the font file; file_key is
-- the fontUrl designs name, the TrueType or OpenType file in blob storage (an upload in WOFF or WOFF2
-- is stored decoded). A deleted font leaves the picker at once (deleted_at); its file is removed later, once no
-- design uses it (file_removed_at).

-- +goose Up
CREATE TABLE fonts (
    id              bigserial PRIMARY KEY,
    seller_id       bigint REFERENCES users (id) ON DELETE CASCADE,
    family          text        NOT NULL,
    style           text        NOT NULL,
    full_name       text        NOT NULL,
    weight          integer     NOT NULL,
    italic          boolean     NOT NULL DEFAULT false,
    file_key        text        NOT NULL,
    -- The format of the file as uploaded: ttf, otf, woff or woff2.
    format          text        NOT NULL,
    -- The stored file's size in bytes.
    size            bigint      NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    deleted_at      timestamptz,
    file_removed_at timestamptz,
    CONSTRAINT fonts_family_check CHECK (family <> '' AND length(family) <= 200),
    CONSTRAINT fonts_style_check CHECK (length(style) <= 200 AND length(full_name) <= 400),
    CONSTRAINT fonts_weight_check CHECK (weight BETWEEN 1 AND 1000),
    CONSTRAINT fonts_format_check CHECK (format IN ('ttf', 'otf', 'woff', 'woff2')),
    CONSTRAINT fonts_size_check CHECK (size > 0),
    CONSTRAINT fonts_removed_check CHECK (file_removed_at IS NULL OR deleted_at IS NOT NULL)
);
CREATE UNIQUE INDEX fonts_file_key ON fonts (file_key);
CREATE INDEX fonts_seller_idx ON fonts (seller_id, family) WHERE deleted_at IS NULL;
CREATE INDEX fonts_removable_idx ON fonts (deleted_at) WHERE deleted_at IS NOT NULL AND file_removed_at IS NULL;

-- +goose Down
DROP TABLE fonts;
