-- Applicants: the private page a quote's inquirer opens from a link, with the evidence they send. The files
-- themselves are in the private Blobs store `evidence` (in parts); their facts, the reviews, the stages, the
-- links (only the SHA-256 of each token) and the events are here.
CREATE TABLE applicants (
  inquiry_id text PRIMARY KEY REFERENCES inquiries (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  stage text NOT NULL DEFAULT 'received' CHECK (stage IN ('received', 'gathering', 'assessment', 'outcome')),
  last_link_mail_at timestamptz,
  files_expired_at timestamptz
);

-- Each stage change; the first stage, 'received', is the applicant's created_at and has no row here.
CREATE TABLE applicant_stages (
  inquiry_id text NOT NULL REFERENCES applicants (inquiry_id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  stage text NOT NULL CHECK (stage IN ('received', 'gathering', 'assessment', 'outcome')),
  at timestamptz NOT NULL,
  PRIMARY KEY (inquiry_id, seq)
);

CREATE TABLE applicant_links (
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
  inquiry_id text NOT NULL REFERENCES applicants (inquiry_id) ON DELETE CASCADE,
  issued_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL CHECK (expires_at > issued_at)
);
CREATE INDEX applicant_links_by_applicant ON applicant_links (inquiry_id, issued_at);

-- An upload from its start: 'uploading' while parts arrive (its size already counts against the applicant's
-- total), 'complete' once every part is there and the content is an accepted type.
CREATE TABLE evidence_files (
  id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{32}$'),
  inquiry_id text NOT NULL REFERENCES applicants (inquiry_id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  size integer NOT NULL CHECK (size > 0 AND size <= 15728640),
  item text NOT NULL CHECK (item ~ '^(general|ev-[0-9a-f]{10})$'),
  state text NOT NULL CHECK (state IN ('uploading', 'complete')),
  -- Parts stored so far, in order.
  received integer NOT NULL DEFAULT 0 CHECK (received >= 0),
  kind text CHECK (kind IN ('pdf', 'jpeg', 'png', 'heic', 'docx', 'odt')),
  started_at timestamptz NOT NULL,
  uploaded_at timestamptz,
  CHECK ((state = 'complete') = (kind IS NOT NULL) AND (state = 'complete') = (uploaded_at IS NOT NULL))
);
CREATE INDEX evidence_files_by_applicant ON evidence_files (inquiry_id, uploaded_at);
CREATE INDEX evidence_files_unfinished ON evidence_files (started_at) WHERE state = 'uploading';

CREATE TABLE applicant_reviews (
  inquiry_id text NOT NULL REFERENCES applicants (inquiry_id) ON DELETE CASCADE,
  item_id text NOT NULL CHECK (item_id ~ '^(general|ev-[0-9a-f]{10})$'),
  status text NOT NULL CHECK (status IN ('accepted', 'needs-more')),
  note text NOT NULL CHECK (length(note) <= 1000),
  by_username text NOT NULL,
  by_name text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (inquiry_id, item_id)
);

CREATE TABLE applicant_events (
  inquiry_id text NOT NULL REFERENCES applicants (inquiry_id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  at timestamptz NOT NULL,
  type text NOT NULL CHECK (type IN ('upload', 'remove', 'review', 'stage', 'link-revoked', 'files-expired')),
  detail text NOT NULL,
  PRIMARY KEY (inquiry_id, seq)
);

-- The anonymous line left when staff erase an applicant's data: when, by whom, how many files went.
CREATE TABLE applicant_erasures (
  inquiry_id text PRIMARY KEY REFERENCES inquiries (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  by_username text NOT NULL,
  files integer NOT NULL CHECK (files >= 0)
);

-- E-mails to an applicant (a new link, "we need more", a stage change): stored, then sent; a failed one waits
-- for the retry at next_attempt_at. No token is kept: a link e-mail makes a fresh link each time.
CREATE TABLE applicant_mail (
  id text PRIMARY KEY,
  inquiry_id text NOT NULL REFERENCES inquiries (id) ON DELETE CASCADE,
  message jsonb NOT NULL CHECK (message ? 'kind'),
  created_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL,
  last_error text
);
CREATE INDEX applicant_mail_due ON applicant_mail (next_attempt_at);
-- An erasure deletes the applicant's waiting e-mails.
CREATE INDEX applicant_mail_by_inquiry ON applicant_mail (inquiry_id);
