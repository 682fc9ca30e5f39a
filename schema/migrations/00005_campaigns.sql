-- Campaigns and the design editor (docs/editor.md):
-- the catalogue of product templates, a seller's campaigns, the products in them (a copy of the
-- template taken when it was added, so later catalogue changes do not move a seller's designs) and
-- one design document per product print space with the state of its print-file export.

-- +goose Up
-- print_spaces and options are JSON text, as the API carries them: print_spaces a list of
-- {name, width, height, displayWidth, printType, isMain, viewWidth, viewHeight, DPI, minDPI},
-- options {"colors": [{name, hex}]}. full_printed: 0 regular, 1 handmade, 2 full 3D print.
-- extra_print_cost is the price of each designed print space beyond the first.
CREATE TABLE product_templates (
    id               bigserial PRIMARY KEY,
    name             text           NOT NULL,
    product_type     text           NOT NULL,
    print_spaces     text           NOT NULL,
    full_printed     smallint       NOT NULL DEFAULT 0,
    options          text           NOT NULL DEFAULT '{"colors":[]}',
    default_option   text           NOT NULL DEFAULT '',
    mockup_type      text           NOT NULL DEFAULT '',
    base_cost        numeric(10, 2) NOT NULL DEFAULT 0,
    extra_print_cost numeric(10, 2) NOT NULL DEFAULT 0,
    personalized     boolean        NOT NULL DEFAULT false,
    position         integer        NOT NULL DEFAULT 0,
    created_at       timestamptz    NOT NULL DEFAULT now(),
    updated_at       timestamptz    NOT NULL DEFAULT now(),
    CONSTRAINT product_templates_name_key UNIQUE (name),
    CONSTRAINT product_templates_product_type_check CHECK (product_type IN ('tshirt', 'hoodie', 'mug', 'poster', 'aop_shirt')),
    CONSTRAINT product_templates_full_printed_check CHECK (full_printed IN (0, 1, 2)),
    CONSTRAINT product_templates_print_spaces_check CHECK (json_typeof(print_spaces::json) = 'array'),
    CONSTRAINT product_templates_options_check CHECK (json_typeof(options::json) = 'object'),
    CONSTRAINT product_templates_costs_check CHECK (base_cost >= 0 AND extra_print_cost >= 0)
);
CREATE INDEX product_templates_position_idx ON product_templates (position, id);

-- A campaign belongs to a seller account (user_id: the account owner, also when a team member
-- works in it). personalized NULL means the campaign states no preference.
CREATE TABLE campaigns (
    id           bigserial PRIMARY KEY,
    user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         text        NOT NULL,
    kind         text        NOT NULL DEFAULT 'regular',
    personalized boolean,
    artwork_url  text        NOT NULL DEFAULT '',
    status       text        NOT NULL DEFAULT 'draft',
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT campaigns_kind_check CHECK (kind IN ('regular', 'custom', 'campaign_express', 'mockup', 'aop', 'combo', 'express_2', 'ai_mockup')),
    CONSTRAINT campaigns_status_check CHECK (status IN ('draft', 'active')),
    CONSTRAINT campaigns_name_check CHECK (length(name) BETWEEN 1 AND 255)
);
CREATE INDEX campaigns_user_idx ON campaigns (user_id, id DESC);

-- A product of a campaign: the template's fields as they were when it was added. A template in use
-- cannot be deleted (products point at it); removing the campaign removes its products.
CREATE TABLE campaign_products (
    id               bigserial PRIMARY KEY,
    campaign_id      bigint         NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    template_id      bigint         NOT NULL REFERENCES product_templates (id),
    name             text           NOT NULL,
    product_type     text           NOT NULL,
    print_spaces     text           NOT NULL,
    full_printed     smallint       NOT NULL DEFAULT 0,
    options          text           NOT NULL DEFAULT '{"colors":[]}',
    default_option   text           NOT NULL DEFAULT '',
    mockup_type      text           NOT NULL DEFAULT '',
    base_cost        numeric(10, 2) NOT NULL DEFAULT 0,
    extra_print_cost numeric(10, 2) NOT NULL DEFAULT 0,
    personalized     boolean        NOT NULL DEFAULT false,
    position         integer        NOT NULL DEFAULT 0,
    created_at       timestamptz    NOT NULL DEFAULT now(),
    -- The target of campaign_designs' (campaign_id, product_id) key.
    CONSTRAINT campaign_products_campaign_id_id_key UNIQUE (campaign_id, id),
    CONSTRAINT campaign_products_full_printed_check CHECK (full_printed IN (0, 1, 2)),
    CONSTRAINT campaign_products_costs_check CHECK (base_cost >= 0 AND extra_print_cost >= 0)
);
CREATE INDEX campaign_products_template_idx ON campaign_products (template_id);

-- One design document per product print space. revision counts the changes of design_json; the
-- export columns describe the print file of that revision, which the renderer's render:export task
-- writes (it only writes a result for the revision it rendered). file_url is the print file's blob
-- key; dpi the DPI it declares; export_report the renderer's report (raster.Report as JSON).
CREATE TABLE campaign_designs (
    id            bigserial PRIMARY KEY,
    campaign_id   bigint      NOT NULL,
    product_id    bigint      NOT NULL,
    print_space   text        NOT NULL,
    design_json   jsonb       NOT NULL,
    option        text        NOT NULL DEFAULT 'print',
    revision      integer     NOT NULL DEFAULT 1,
    export_status text        NOT NULL DEFAULT 'none',
    file_url      text        NOT NULL DEFAULT '',
    width         integer     NOT NULL DEFAULT 0,
    height        integer     NOT NULL DEFAULT 0,
    dpi           double precision NOT NULL DEFAULT 0,
    file_size     bigint      NOT NULL DEFAULT 0,
    export_report jsonb,
    export_error  text        NOT NULL DEFAULT '',
    exported_at   timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    -- The product must be one of this campaign's: a design cannot point across campaigns.
    CONSTRAINT campaign_designs_product_fkey FOREIGN KEY (campaign_id, product_id)
        REFERENCES campaign_products (campaign_id, id) ON DELETE CASCADE,
    CONSTRAINT campaign_designs_campaign_fkey FOREIGN KEY (campaign_id) REFERENCES campaigns (id) ON DELETE CASCADE,
    CONSTRAINT campaign_designs_product_space_key UNIQUE (product_id, print_space),
    CONSTRAINT campaign_designs_option_check CHECK (option IN ('print', 'custom')),
    CONSTRAINT campaign_designs_export_status_check CHECK (export_status IN ('none', 'pending', 'rendering', 'done', 'failed')),
    CONSTRAINT campaign_designs_revision_check CHECK (revision >= 1),
    CONSTRAINT campaign_designs_design_json_check CHECK (jsonb_typeof(design_json) = 'object')
);
CREATE INDEX campaign_designs_campaign_idx ON campaign_designs (campaign_id, product_id);

-- +goose Down
DROP TABLE campaign_designs;
DROP TABLE campaign_products;
DROP TABLE campaigns;
DROP TABLE product_templates;
