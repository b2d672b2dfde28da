-- The activity log: who saved what, when, and the fields that changed. The actor is named as they were at the
-- time (a deleted account's entries stay), so there is no foreign key to staff.
CREATE TABLE activity (
  id text PRIMARY KEY,
  at timestamptz NOT NULL,
  actor_username text NOT NULL,
  actor_name text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('settings', 'catalogue', 'post', 'user', 'inquiry')),
  action text NOT NULL,
  target_id text NOT NULL,
  target_label text NOT NULL,
  changes jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(changes) = 'array'),
  more integer CHECK (more > 0)
);
CREATE INDEX activity_newest ON activity (at DESC, id DESC);
CREATE INDEX activity_by_actor ON activity (actor_username, at DESC, id DESC);
CREATE INDEX activity_by_kind ON activity (kind, at DESC, id DESC);
