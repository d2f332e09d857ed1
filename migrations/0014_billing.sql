-- Plans and payments: orders at a payment provider, the plan changes their payments made, the
-- provider's webhook events (stored by id, so a delivered-again event changes nothing), and the
-- quota notices already sent (one per limit, account, period and threshold).
CREATE TABLE payment_orders (
  -- The provider's own order id (Razorpay's order_..., the test provider's order_test_...).
  id text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  provider text NOT NULL CHECK (provider IN ('razorpay', 'test')),
  plan text NOT NULL CHECK (plan IN ('hobby', 'pro')),
  -- Smallest currency unit (paise).
  amount integer NOT NULL CHECK (amount > 0),
  currency text NOT NULL,
  status text NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'paid', 'failed')),
  payment_id text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  paid_at timestamptz
);
CREATE INDEX payment_orders_account_idx ON payment_orders (account_id, created_at DESC);

CREATE TABLE plan_changes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  from_plan text NOT NULL,
  to_plan text NOT NULL,
  -- The payment that made it; one change per order, whoever (verification or webhook) came first.
  order_id text UNIQUE REFERENCES payment_orders (id) ON DELETE SET NULL,
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX plan_changes_account_idx ON plan_changes (account_id, changed_at DESC);

CREATE TABLE payment_webhook_events (
  id text PRIMARY KEY,
  provider text NOT NULL,
  event text NOT NULL,
  order_id text,
  received_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE quota_notices (
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  limit_name text NOT NULL,
  -- '2026-11' for a monthly limit, 'always' for the others (a notice again only after a plan change).
  period text NOT NULL,
  percent integer NOT NULL CHECK (percent IN (80, 100)),
  plan text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, limit_name, period, percent, plan)
);

-- Monthly active end users are counted from last_login across an account's projects.
CREATE INDEX end_users_project_last_login_idx ON end_users (project_id, last_login);
