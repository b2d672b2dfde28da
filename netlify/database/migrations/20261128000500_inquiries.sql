-- Inquiries: every contact message, home consultation request and free-quote request, stored before any e-mail
-- is tried. The visitor's scalar fields are columns; a quote's answers (a nested form that grows with the form)
-- are one jsonb value. Staff notes, replies and the e-mail deliveries are rows of their own.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE inquiries (
  -- UTC time to the millisecond, then randomness: sorts by time.
  id text PRIMARY KEY CHECK (id ~ '^\d{8}T\d{9}Z-[0-9a-f]{8}$'),
  -- What people read out over the phone; older inquiries have none and go by their id.
  reference text UNIQUE CHECK (reference ~ '^RPL-[2-9A-HJKMNP-Z]{6,8}$'),
  kind text NOT NULL CHECK (kind IN ('contact', 'quote')),
  source text NOT NULL CHECK (source IN ('contact', 'home', 'quote')),
  created_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'handled')),
  handled_at timestamptz,
  status_rev integer NOT NULL DEFAULT 0 CHECK (status_rev >= 0),
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  phone text NOT NULL,
  -- Null on inquiries stored before the forms asked for consent.
  consent_partner_rto boolean,
  consent_marketing boolean,
  consent_version text CHECK (consent_version ~ '^[0-9a-f]{16}$'),
  message text,
  quote jsonb CHECK (quote IS NULL OR jsonb_typeof(quote) = 'object'),
  callback_day date,
  callback_window text CHECK (length(callback_window) <= 40),
  callback_requested_at timestamptz,
  -- The latest assignment, with the names as they were; to_* are null once it was taken away.
  assigned_to_username text,
  assigned_to_name text,
  assigned_by_username text,
  assigned_by_name text,
  assigned_at timestamptz,
  follow_up_date date,
  follow_up_by_username text,
  follow_up_by_name text,
  follow_up_at timestamptz,
  follow_up_rev integer NOT NULL DEFAULT 0 CHECK (follow_up_rev >= 0),
  erased_at timestamptz,
  -- What the inbox search looks in (lower case): name, e-mail, reference, phone digits, the experience text.
  search_text text NOT NULL DEFAULT '',
  -- The chosen qualifications' codes, so a search for a title's words finds inquiries naming it.
  course_codes text[] NOT NULL DEFAULT '{}',
  CHECK ((kind = 'quote') = (source = 'quote')),
  CHECK ((kind = 'contact') = (message IS NOT NULL)),
  CHECK ((kind = 'quote') = (quote IS NOT NULL)),
  CHECK ((status = 'handled') = (handled_at IS NOT NULL)),
  CHECK ((consent_partner_rto IS NULL) = (consent_marketing IS NULL)),
  CHECK ((callback_day IS NULL) = (callback_window IS NULL) AND (callback_day IS NULL) = (callback_requested_at IS NULL)),
  CHECK ((assigned_at IS NULL) = (assigned_by_username IS NULL)),
  CHECK ((assigned_to_username IS NULL) = (assigned_to_name IS NULL)),
  CHECK ((follow_up_at IS NULL) = (follow_up_rev = 0))
);
-- The inbox: newest first, all or by status.
CREATE INDEX inquiries_by_status ON inquiries (status, id DESC);
CREATE INDEX inquiries_by_time ON inquiries (created_at);
CREATE INDEX inquiries_search ON inquiries USING gin (search_text gin_trgm_ops);
CREATE INDEX inquiries_by_course ON inquiries USING gin (course_codes);
CREATE INDEX inquiries_follow_ups ON inquiries (follow_up_date, id DESC) WHERE follow_up_date IS NOT NULL;
CREATE INDEX inquiries_callbacks ON inquiries (callback_day) WHERE callback_day IS NOT NULL;
CREATE INDEX inquiries_by_email ON inquiries (lower(email));

-- How many inquiries have each status, kept by the trigger below, so the inbox's counts never count rows.
CREATE TABLE inquiry_counts (
  status text PRIMARY KEY CHECK (status IN ('new', 'handled')),
  n integer NOT NULL DEFAULT 0 CHECK (n >= 0)
);
INSERT INTO inquiry_counts (status, n) VALUES ('new', 0), ('handled', 0);

-- Once per statement, from the rows it changed, so a bulk insert costs one update of the counts, not one per row.
CREATE FUNCTION inquiry_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE inquiry_counts c SET n = c.n + d.k FROM (SELECT status, count(*) AS k FROM added GROUP BY status) d
  WHERE c.status = d.status;
  RETURN NULL;
END $$;
CREATE FUNCTION inquiry_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE inquiry_counts c SET n = c.n - d.k FROM (SELECT status, count(*) AS k FROM removed GROUP BY status) d
  WHERE c.status = d.status;
  RETURN NULL;
END $$;
CREATE FUNCTION inquiry_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE inquiry_counts c SET n = c.n + d.k
  FROM (
    SELECT status, sum(k) AS k FROM (
      SELECT status, count(*) AS k FROM added GROUP BY status
      UNION ALL SELECT status, -count(*) AS k FROM removed GROUP BY status
    ) changes GROUP BY status
  ) d
  WHERE c.status = d.status AND d.k <> 0;
  RETURN NULL;
END $$;
CREATE TRIGGER inquiry_counts_on_insert AFTER INSERT ON inquiries
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION inquiry_counts_add();
CREATE TRIGGER inquiry_counts_on_delete AFTER DELETE ON inquiries
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION inquiry_counts_remove();
CREATE TRIGGER inquiry_counts_on_update AFTER UPDATE ON inquiries
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION inquiry_counts_move();

CREATE TABLE inquiry_notes (
  inquiry_id text NOT NULL REFERENCES inquiries (id) ON DELETE CASCADE,
  id text NOT NULL CHECK (id ~ '^[0-9a-f]{12}$'),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  text text NOT NULL CHECK (length(text) <= 2000),
  author_username text NOT NULL,
  author_name text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (inquiry_id, id)
);
CREATE INDEX inquiry_notes_in_order ON inquiry_notes (inquiry_id, seq);

-- The state of one e-mail: sending (a sender holds it until next_attempt_at), pending (a retry waits until
-- next_attempt_at), sent, or failed (given up). The same columns serve the inquiry's own e-mails and replies.
CREATE TABLE inquiry_mail (
  inquiry_id text NOT NULL REFERENCES inquiries (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('staff', 'ack')),
  state text NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  idempotency_key text NOT NULL UNIQUE,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_error text,
  sent_at timestamptz,
  provider_id text,
  via text CHECK (via IN ('resend', 'outbox')),
  PRIMARY KEY (inquiry_id, kind)
);
CREATE INDEX inquiry_mail_open ON inquiry_mail (next_attempt_at) WHERE state IN ('pending', 'sending');

CREATE TABLE inquiry_replies (
  inquiry_id text NOT NULL REFERENCES inquiries (id) ON DELETE CASCADE,
  id text NOT NULL CHECK (id ~ '^[0-9a-f]{12}$'),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  subject text NOT NULL,
  body text NOT NULL,
  by_username text NOT NULL,
  by_name text NOT NULL,
  at timestamptz NOT NULL,
  state text NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  idempotency_key text NOT NULL UNIQUE,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_error text,
  sent_at timestamptz,
  provider_id text,
  via text CHECK (via IN ('resend', 'outbox')),
  PRIMARY KEY (inquiry_id, id)
);
CREATE INDEX inquiry_replies_in_order ON inquiry_replies (inquiry_id, seq);
CREATE INDEX inquiry_replies_open ON inquiry_replies (next_attempt_at) WHERE state IN ('pending', 'sending');

-- When each staff member last opened the inbox (the dashboard counts what came since).
CREATE TABLE inbox_visits (
  username text PRIMARY KEY REFERENCES staff (username) ON DELETE CASCADE ON UPDATE CASCADE,
  at timestamptz NOT NULL
);

-- The marketing suppression list: the SHA-256 of the normalised address, never the address.
CREATE TABLE marketing_withdrawals (
  email_hash text PRIMARY KEY CHECK (email_hash ~ '^[a-f0-9]{64}$'),
  at timestamptz NOT NULL,
  via text NOT NULL CHECK (via IN ('email-link', 'staff')),
  by_username text,
  by_name text,
  CHECK ((via = 'staff') = (by_username IS NOT NULL))
);

-- Full CSV exports: the job here, the file's parts in Blobs (`exports`).
CREATE TABLE export_jobs (
  id text PRIMARY KEY CHECK (id ~ '^[a-f0-9]{32}$'),
  state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
  requested_by text NOT NULL,
  requested_at timestamptz NOT NULL,
  total integer NOT NULL CHECK (total >= 0),
  done integer NOT NULL DEFAULT 0 CHECK (done >= 0),
  parts integer NOT NULL DEFAULT 0 CHECK (parts >= 0),
  bytes bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0),
  -- The size of each part written (part 0 is the header row), so the download can be offered in files that each
  -- stay under a function's streamed answer limit.
  part_bytes integer[] NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL,
  finished_at timestamptz,
  expires_at timestamptz,
  error text
);

-- Mail kept instead of sent where no mail service is configured (a local run): one row per message.
CREATE TABLE outbox_messages (
  idempotency_key text PRIMARY KEY,
  kind text NOT NULL,
  sender text NOT NULL,
  recipient text NOT NULL,
  reply_to text,
  subject text NOT NULL,
  text text NOT NULL,
  html text NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX outbox_messages_newest ON outbox_messages (stored_at DESC);
