-- Staff accounts and everything that signs them in: sessions, one-time links (invitations and sign-in links),
-- the second factor's recovery codes, the cap on sign-in link mails, and the sign-in throttle's counters.
-- Times the code counts in milliseconds (token lifetimes, throttle windows) are kept as bigint milliseconds.

CREATE TABLE staff (
  username text PRIMARY KEY CHECK (username ~ '^[a-z0-9][a-z0-9._-]{2,63}$'),
  first_name text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
  last_name text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
  role text NOT NULL CHECK (role IN ('admin', 'editor')),
  email text CHECK (email IS NULL OR length(email) BETWEEN 3 AND 254),
  -- Null while an invited person has not chosen a password: such an account cannot sign in.
  password_hash text CHECK (password_hash IS NULL OR password_hash <> ''),
  active boolean NOT NULL DEFAULT true,
  invited_at bigint CHECK (invited_at >= 0),
  -- Tokens issued at or before this moment (ms) are refused.
  valid_after bigint NOT NULL DEFAULT 0 CHECK (valid_after >= 0),
  totp_secret text CHECK (totp_secret ~ '^[A-Z2-7]{32}$'),
  totp_enabled_at bigint,
  -- The last 30-second step a code was accepted for: a code is never accepted twice.
  totp_last_step bigint,
  totp_pending_secret text CHECK (totp_pending_secret ~ '^[A-Z2-7]{32}$'),
  totp_pending_at bigint,
  last_sign_in_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((totp_secret IS NULL) = (totp_enabled_at IS NULL) AND (totp_secret IS NULL) = (totp_last_step IS NULL)),
  CHECK ((totp_pending_secret IS NULL) = (totp_pending_at IS NULL))
);
-- One account per address, however it was typed.
CREATE UNIQUE INDEX staff_email_key ON staff (lower(email)) WHERE email IS NOT NULL;

-- A signed-in device; a token counts only while its session is here.
CREATE TABLE staff_sessions (
  id uuid PRIMARY KEY,
  username text NOT NULL REFERENCES staff (username) ON DELETE CASCADE ON UPDATE CASCADE,
  device text NOT NULL CHECK (length(device) <= 80),
  created_at bigint NOT NULL CHECK (created_at >= 0),
  last_seen_at bigint NOT NULL CHECK (last_seen_at >= 0)
);
CREATE INDEX staff_sessions_by_account ON staff_sessions (username, created_at);

-- Each works once: a used code is deleted.
CREATE TABLE staff_recovery_codes (
  username text NOT NULL REFERENCES staff (username) ON DELETE CASCADE ON UPDATE CASCADE,
  code_hash text NOT NULL CHECK (code_hash ~ '^[a-f0-9]{64}$'),
  PRIMARY KEY (username, code_hash)
);

-- Invitations and one-time sign-in links: only the SHA-256 of the token is kept; a link is used by one UPDATE
-- that also checks it is unused and unexpired, so two requests can never both use it.
CREATE TABLE staff_links (
  token_hash text PRIMARY KEY CHECK (token_hash ~ '^[a-f0-9]{64}$'),
  purpose text NOT NULL CHECK (purpose IN ('invite', 'sign-in')),
  username text NOT NULL REFERENCES staff (username) ON DELETE CASCADE ON UPDATE CASCADE,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL CHECK (expires_at > created_at),
  used_at bigint
);
CREATE INDEX staff_links_by_account ON staff_links (username);

-- Sign-in link mails sent per account, to cap them per window.
CREATE TABLE sign_in_link_mails (
  username text NOT NULL REFERENCES staff (username) ON DELETE CASCADE ON UPDATE CASCADE,
  sent_at bigint NOT NULL
);
CREATE INDEX sign_in_link_mails_by_account ON sign_in_link_mails (username, sent_at);

-- The sign-in throttle: one counter per scope (an account and address pair, an address, an account). Keys hold
-- hashes, never an address. `pending` lists the attempts reserved and not yet settled ({id, until} each).
CREATE TABLE sign_in_counters (
  key text PRIMARY KEY CHECK (key ~ '^(pair|ip|account)-[a-f0-9-]+$'),
  failures integer NOT NULL DEFAULT 0 CHECK (failures >= 0),
  last_failure_at bigint NOT NULL DEFAULT 0,
  locked_until bigint NOT NULL DEFAULT 0,
  trusted text[] NOT NULL DEFAULT '{}' CHECK (cardinality(trusted) <= 20),
  pending jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(pending) = 'array'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
