-- Flat mockups (docs/mockups.md): the mockup templates of each product template and print
-- space, and the mockup records of a campaign's products, which the renderer's render:mockup task
-- writes once the print file of the design they show is made.

-- +goose Up
-- A mockup template of a product template's print space (the API's template_mockups). file_url is
-- the blob key of the template JSON (renderer/mockup's format, its images named by blob key);
-- design_json {name, color, crop, shadow, glb}. type_detail is the product mockup type it
-- is for: used only when it equals the product's mockup_type or is empty.
CREATE TABLE mockup_templates (
    id          bigserial PRIMARY KEY,
    template_id bigint      NOT NULL REFERENCES product_templates (id) ON DELETE CASCADE,
    print_space text        NOT NULL,
    type_detail text        NOT NULL DEFAULT '',
    file_url    text        NOT NULL,
    design_json jsonb       NOT NULL,
    position    integer     NOT NULL DEFAULT 0,
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT mockup_templates_file_key UNIQUE (template_id, file_url),
    CONSTRAINT mockup_templates_design_json_check CHECK (jsonb_typeof(design_json) = 'object')
);
CREATE INDEX mockup_templates_template_idx ON mockup_templates (template_id, print_space, position, id);

-- A mockup record: one per campaign product and mockup template,
-- showing revision design_revision of the design of its print space. file_url is the mockup's blob
-- key, p/{campaignId}/design_{mockupTemplateId}_{productId}.png, set once done; status pending
-- while the render:mockup task of that revision has not finished. A product has at most one
-- default mockup.
CREATE TABLE campaign_mockups (
    id                 bigserial PRIMARY KEY,
    campaign_id        bigint      NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    product_id         bigint      NOT NULL,
    print_space        text        NOT NULL,
    mockup_template_id bigint      NOT NULL REFERENCES mockup_templates (id) ON DELETE CASCADE,
    design_id          bigint      NOT NULL REFERENCES campaign_designs (id) ON DELETE CASCADE,
    design_revision    integer     NOT NULL,
    is_default_mockup  boolean     NOT NULL DEFAULT false,
    file_url           text        NOT NULL DEFAULT '',
    status             text        NOT NULL DEFAULT 'pending',
    error              text        NOT NULL DEFAULT '',
    rendered_at        timestamptz,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT campaign_mockups_product_fkey FOREIGN KEY (campaign_id, product_id)
        REFERENCES campaign_products (campaign_id, id) ON DELETE CASCADE,
    CONSTRAINT campaign_mockups_product_template_key UNIQUE (product_id, mockup_template_id),
    CONSTRAINT campaign_mockups_status_check CHECK (status IN ('pending', 'done', 'failed')),
    CONSTRAINT campaign_mockups_revision_check CHECK (design_revision >= 1)
);
CREATE INDEX campaign_mockups_campaign_idx ON campaign_mockups (campaign_id, product_id, id);
CREATE INDEX campaign_mockups_design_idx ON campaign_mockups (design_id);
CREATE UNIQUE INDEX campaign_mockups_default_idx ON campaign_mockups (product_id) WHERE is_default_mockup;

-- +goose Down
DROP TABLE campaign_mockups;
DROP TABLE mockup_templates;
