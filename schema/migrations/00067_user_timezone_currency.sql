-- A seller's general settings: the time zone every date is shown in (an IANA name; the hours from
-- UTC are worked out from it whenever they are needed, so they follow daylight saving time) and the
-- display currency (NULL: the platform's currency). The fixed utc_offset column they replace is
-- carried over as the zone with the same offset. See docs/accounts.md, "General settings".

-- +goose Up
ALTER TABLE users
    ADD COLUMN timezone text NOT NULL DEFAULT 'UTC' CHECK (timezone <> ''),
    ADD COLUMN currency text;

UPDATE users SET timezone = CASE
    WHEN utc_offset = 0 THEN 'UTC'
    WHEN utc_offset = trunc(utc_offset) AND utc_offset BETWEEN -12 AND 14
        -- Etc/GMT names count the other way: Etc/GMT-2 is two hours ahead of UTC.
        THEN 'Etc/GMT' || CASE WHEN utc_offset > 0 THEN '-' ELSE '+' END || abs(utc_offset)::int
    WHEN utc_offset = -9.5 THEN 'Pacific/Marquesas'
    WHEN utc_offset = -3.5 THEN 'America/St_Johns'
    WHEN utc_offset = 3.5 THEN 'Asia/Tehran'
    WHEN utc_offset = 4.5 THEN 'Asia/Kabul'
    WHEN utc_offset = 5.5 THEN 'Asia/Kolkata'
    WHEN utc_offset = 5.75 THEN 'Asia/Kathmandu'
    WHEN utc_offset = 6.5 THEN 'Asia/Yangon'
    WHEN utc_offset = 8.75 THEN 'Australia/Eucla'
    WHEN utc_offset = 9.5 THEN 'Australia/Darwin'
    WHEN utc_offset = 10.5 THEN 'Australia/Lord_Howe'
    WHEN utc_offset = 12.75 THEN 'Pacific/Chatham'
    ELSE 'UTC'
END
WHERE utc_offset <> 0;

ALTER TABLE users DROP COLUMN utc_offset;

-- +goose Down
ALTER TABLE users ADD COLUMN utc_offset numeric(4, 2) NOT NULL DEFAULT 0;
ALTER TABLE users DROP COLUMN currency, DROP COLUMN timezone;
