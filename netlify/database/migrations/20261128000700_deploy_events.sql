-- What Netlify's deploy events (netlify/functions/deploy-events.mts) said about production deploys: started
-- building, live, or failed. The admin's rebuild status reads the newest after a save's request,
-- so a failed build shows as failed instead of "requested" for ever.
CREATE TABLE deploy_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  deploy_id text NOT NULL CHECK (deploy_id ~ '^[0-9a-f]{1,40}$'),
  state text NOT NULL CHECK (state IN ('building', 'ready', 'error')),
  error_message text CHECK (length(error_message) <= 2000),
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deploy_events_newest ON deploy_events (received_at DESC, id DESC);
