-- Seller engagement: the tier the seller survey upgrades,
-- the featured articles of the dashboard's carousel, and the utm_campaign click and submit tracks.

-- +goose Up
-- tier: 1 for every account; the first completed seller survey raises it to 2.
-- survey_completed_at is that first completion.
ALTER TABLE users
    ADD COLUMN tier                smallint    NOT NULL DEFAULT 1,
    ADD COLUMN survey_completed_at timestamptz,
    ADD CONSTRAINT users_tier_check CHECK (tier >= 1);

-- Articles of GET /api/public/featured-info, shown to everyone, lowest position first. content is
-- HTML, sanitized when stored and again when served; link, when set, opens in a new tab instead of
-- the article's modal.
CREATE TABLE featured_articles (
    id         bigserial PRIMARY KEY,
    subject    text        NOT NULL,
    banner     text        NOT NULL DEFAULT '',
    content    text        NOT NULL DEFAULT '',
    link       text        NOT NULL DEFAULT '',
    position   integer     NOT NULL DEFAULT 0,
    active     boolean     NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT featured_articles_subject_check CHECK (subject <> '')
);
CREATE INDEX featured_articles_active_idx ON featured_articles (position, id) WHERE active;

-- One utm_campaign event with the client info the browser sent and the IP
-- the bff saw. A click is anonymous (POST /api/utm-campaign/track), counted once per visitor and
-- campaign; a submit is the signed-in seller's (POST /api/seller/utm-campaign/track), once per
-- seller and campaign.
CREATE TABLE utm_campaign_tracks (
    id             bigserial PRIMARY KEY,
    kind           text        NOT NULL,
    utm_campaign   text        NOT NULL,
    -- The whole tracking query (utm_source, utm_medium, ...) as the cs_track cookie kept it.
    query          jsonb       NOT NULL DEFAULT '{}',
    user_id        bigint REFERENCES users (id) ON DELETE SET NULL,
    visitor_id     text        NOT NULL DEFAULT '',
    tab_session_id text        NOT NULL DEFAULT '',
    browser        text        NOT NULL DEFAULT '',
    device         text        NOT NULL DEFAULT '',
    os             text        NOT NULL DEFAULT '',
    user_agent     text        NOT NULL DEFAULT '',
    ip             text        NOT NULL DEFAULT '',
    created_at     timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT utm_campaign_tracks_kind_check CHECK (kind IN ('click', 'submit')),
    CONSTRAINT utm_campaign_tracks_campaign_check CHECK (utm_campaign <> ''),
    CONSTRAINT utm_campaign_tracks_submit_user_check CHECK (kind = 'click' OR user_id IS NOT NULL)
);
CREATE UNIQUE INDEX utm_campaign_tracks_click_key ON utm_campaign_tracks (utm_campaign, visitor_id) WHERE kind = 'click';
CREATE UNIQUE INDEX utm_campaign_tracks_submit_key ON utm_campaign_tracks (utm_campaign, user_id) WHERE kind = 'submit';

-- +goose Down
DROP TABLE utm_campaign_tracks;
DROP TABLE featured_articles;
ALTER TABLE users DROP CONSTRAINT users_tier_check, DROP COLUMN survey_completed_at, DROP COLUMN tier;
