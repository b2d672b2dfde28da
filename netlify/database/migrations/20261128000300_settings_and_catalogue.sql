-- Site settings: one row, saved whole with a version that grows by one per save (a save names the version it
-- was based on). Every saved version is kept.
CREATE TABLE site_settings (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  data jsonb NOT NULL CHECK (jsonb_typeof(data) = 'object'),
  version integer NOT NULL CHECK (version > 0),
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL
);
CREATE TABLE site_settings_versions (
  version integer PRIMARY KEY CHECK (version > 0),
  data jsonb NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL
);

-- The inbox's reply templates: the list is saved whole, versioned like the settings. Version 0 is the set the
-- site starts with (inserted below); the first save makes version 1.
CREATE TABLE reply_templates (
  id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  templates jsonb NOT NULL CHECK (jsonb_typeof(templates) = 'array'),
  version integer NOT NULL CHECK (version >= 0),
  updated_at timestamptz,
  updated_by text,
  CHECK ((version = 0) = (updated_by IS NULL))
);
INSERT INTO reply_templates (templates, version) VALUES (
  '[{"id":"quote-sent","name":"Quote sent","subject":"Your RPL quote – {reference}","body":"Hi {firstName},\n\nThank you for your patience. We have sent you a quote for your recognition of prior learning (reference {reference}).\n\nIf you have any questions about it, simply reply to this e-mail or give us a call.\n\nRPL Pathways"},{"id":"need-more-evidence","name":"Need more evidence","subject":"A little more evidence for {reference}","body":"Hi {firstName},\n\nThank you for what you have sent so far. To go ahead with your application (reference {reference}) we need a little more evidence of your work, such as payslips, a reference from an employer or photos of your work.\n\nReply to this e-mail with what you have, and we will let you know if anything else is needed.\n\nRPL Pathways"},{"id":"call-back-booked","name":"Call-back booked","subject":"Your call-back is booked – {reference}","body":"Hi {firstName},\n\nThank you for asking us to call you. Your call-back is booked, and one of our team will ring you at the time we agreed.\n\nIf the time no longer suits you, reply to this e-mail and quote your reference {reference}.\n\nRPL Pathways"}]',
  0
);

-- Staff edits laid over the repository's catalogue: one row per edited course, category and register look-up,
-- each versioned (a save names the version it was based on).
CREATE TABLE catalogue_courses (
  code text PRIMARY KEY CHECK (code ~ '^[A-Z0-9]{3,20}$'),
  version integer NOT NULL CHECK (version > 0),
  -- Set for a qualification staff added (not in the repository).
  added jsonb CHECK (added IS NULL OR jsonb_typeof(added) = 'object'),
  edit jsonb NOT NULL CHECK (jsonb_typeof(edit) = 'object'),
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL
);
CREATE TABLE catalogue_categories (
  slug text PRIMARY KEY CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  version integer NOT NULL CHECK (version > 0),
  edit jsonb NOT NULL CHECK (jsonb_typeof(edit) = 'object'),
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL
);
CREATE TABLE register_checks (
  code text PRIMARY KEY CHECK (code ~ '^[A-Z0-9]{3,20}$'),
  version integer NOT NULL CHECK (version > 0),
  status text NOT NULL CHECK (status IN ('current', 'superseded', 'deleted')),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  by_name text CHECK (length(by_name) <= 120),
  work_hours integer CHECK (work_hours BETWEEN 1 AND 5000),
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL
);

-- Rebuilds asked for after a catalogue or settings save (the admin shows the latest).
CREATE TABLE rebuild_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  requested_at timestamptz NOT NULL,
  requested_by text NOT NULL,
  via text NOT NULL CHECK (via IN ('build-hook', 'local', 'none')),
  outcome text NOT NULL CHECK (outcome IN ('started', 'failed', 'not-configured')),
  deploy_id text
);
