-- Blog posts, their addresses (the current one and every earlier one of a published post, unique across all
-- posts), their saved revisions, and the counters the dashboard reads.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE blog_posts (
  id text PRIMARY KEY CHECK (id ~ '^[a-f0-9]{32}$'),
  slug text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  previous_slugs text[] NOT NULL DEFAULT '{}',
  title text NOT NULL,
  excerpt text NOT NULL,
  content text NOT NULL,
  content_type text NOT NULL CHECK (content_type IN ('html', 'markdown')),
  html text NOT NULL,
  author text NOT NULL,
  featured_image text NOT NULL DEFAULT '',
  featured_image_alt text NOT NULL DEFAULT '',
  category text NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  seo_keywords text[] NOT NULL DEFAULT '{}',
  meta_title text NOT NULL DEFAULT '',
  meta_description text NOT NULL DEFAULT '',
  is_published boolean NOT NULL DEFAULT false,
  -- When first published (kept when unpublished).
  published_at timestamptz,
  -- When the scheduled run publishes a draft.
  publish_at timestamptz,
  read_time integer NOT NULL DEFAULT 5 CHECK (read_time > 0),
  -- Counted by the view beacon only; a save never writes it.
  views integer NOT NULL DEFAULT 0 CHECK (views >= 0),
  version integer NOT NULL CHECK (version > 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  created_by text NOT NULL DEFAULT '',
  updated_by text NOT NULL DEFAULT '',
  -- Title, excerpt, author, category and tags folded as the public search folds what is typed (lower case,
  -- accents removed: src/server/blog-reads.ts), written with every save.
  search_text text NOT NULL DEFAULT ''
);
CREATE INDEX blog_posts_search ON blog_posts USING gin (search_text gin_trgm_ops) WHERE is_published;
CREATE INDEX blog_posts_published ON blog_posts ((coalesce(published_at, created_at)) DESC) WHERE is_published;
CREATE INDEX blog_posts_scheduled ON blog_posts (publish_at) WHERE publish_at IS NOT NULL AND NOT is_published;

CREATE TABLE blog_slugs (
  slug text PRIMARY KEY CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  -- Checked at commit: a new post claims its address before its row is written, in the same transaction.
  post_id text NOT NULL REFERENCES blog_posts (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX blog_slugs_by_post ON blog_slugs (post_id);

CREATE TABLE blog_revisions (
  post_id text NOT NULL REFERENCES blog_posts (id) ON DELETE CASCADE,
  version integer NOT NULL CHECK (version > 0),
  saved_at timestamptz NOT NULL,
  saved_by text NOT NULL,
  -- The written fields as they were (a revision keeps exactly those).
  content jsonb NOT NULL CHECK (jsonb_typeof(content) = 'object'),
  PRIMARY KEY (post_id, version)
);

CREATE TABLE monthly_views (
  month text PRIMARY KEY CHECK (month ~ '^\d{4}-\d{2}$'),
  count integer NOT NULL DEFAULT 0 CHECK (count >= 0)
);
-- The catalogue and blog totals as first seen each month (the baseline of the dashboard's growth figures).
CREATE TABLE monthly_snapshots (
  month text PRIMARY KEY CHECK (month ~ '^\d{4}-\d{2}$'),
  courses integer NOT NULL CHECK (courses >= 0),
  categories integer NOT NULL CHECK (categories >= 0),
  published_blogs integer NOT NULL CHECK (published_blogs >= 0),
  taken_at timestamptz NOT NULL
);

-- Sample content put into a local site once (scripts/seed-blog.ts): the row stays when the samples are deleted,
-- so they are not brought back.
CREATE TABLE sample_content (
  name text PRIMARY KEY,
  seeded_at timestamptz NOT NULL,
  items integer NOT NULL CHECK (items >= 0)
);

-- Uploaded images: the re-encoded files are in Blobs (`uploads`), their facts here.
CREATE TABLE images (
  id text PRIMARY KEY CHECK (id ~ '^[a-f0-9]{32}$'),
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  uploaded_by text NOT NULL,
  uploaded_at timestamptz NOT NULL
);
CREATE INDEX images_newest ON images (uploaded_at DESC);
