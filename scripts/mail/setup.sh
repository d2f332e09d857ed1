#!/usr/bin/env bash
# Installs (Debian packages, non-interactively) and configures the hosted-mail servers against the
# platform's PostgreSQL: Postfix (+ postfix-pgsql), Dovecot (imapd, lmtpd, pgsql) and OpenDKIM.
# Idempotent: run it again after changing a setting; then start.sh (or stop.sh && start.sh).
#
#   Postfix  :MAIL_SMTP_PORT (25)        mail from the internet, accepted only for active mailboxes
#                                        of verified domains (and refused at RCPT when over quota),
#                                        delivered over LMTP to Dovecot
#            :MAIL_SUBMISSION_PORT (465) implicit TLS, SASL AUTH through Dovecot required, a user
#                                        sends only as their own address, DKIM-signed by OpenDKIM
#   Dovecot  :MAIL_IMAP_PORT (993)       IMAP, implicit TLS; QUOTA from mail_accounts.quota_bytes
#   OpenDKIM 127.0.0.1:MAIL_DKIM_PORT    milter of the submission service only
#
# The servers read only the views mail_domains_view and mail_users_view (migrations/0009_mail.sql)
# as a read-only role (MAIL_DB_ROLE) made here. DKIM private keys never sit in plain text in the
# database: the platform unseals them and writes OpenDKIM's key files (see sync-dkim-keys.sh).
# Settings: scripts/mail/env.sh. Nothing here uses systemd; the distribution's own postfix,
# dovecot and opendkim services are left stopped (and disabled when systemd runs them).
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
: "${DATABASE_URL:?DATABASE_URL must name the platform database (postgres://...)}"
[ "$(id -u)" = 0 ] || { echo "setup.sh must run as root (Postfix and Dovecot start as root)" >&2; exit 1; }

# 1. Packages. Debconf is pre-seeded so postfix asks nothing and writes no system-wide main.cf;
#    a temporary policy-rc.d keeps the packages' services from starting on install.
packages=(postfix postfix-pgsql dovecot-imapd dovecot-lmtpd dovecot-pgsql opendkim opendkim-tools libopendbx1-pgsql openssl postgresql-client)
missing=()
for p in "${packages[@]}"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  made_policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod 755 /usr/sbin/policy-rc.d; made_policy=1; fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  if [ -n "$made_policy" ]; then rm -f /usr/sbin/policy-rc.d; fi
  if [ -d /run/systemd/system ]; then systemctl disable --now postfix dovecot opendkim >/dev/null 2>&1 || true; fi
fi

# 2. Users and directories.
id -u "$MAIL_VMAIL_USER" >/dev/null 2>&1 || useradd --system --home-dir "$MAIL_STORE_DIR" --no-create-home --shell /usr/sbin/nologin "$MAIL_VMAIL_USER"
vmail_uid=$(id -u "$MAIL_VMAIL_USER"); vmail_gid=$(id -g "$MAIL_VMAIL_USER")
install -d -m 755 "$MAIL_CONFIG_DIR" "$POSTFIX_DIR" "$MAIL_CONFIG_DIR/dovecot" "$MAIL_CONFIG_DIR/opendkim" "$MAIL_STATE_DIR" "$RUN_DIR"
install -d -m 750 -o "$MAIL_VMAIL_USER" -g "$MAIL_VMAIL_USER" "$MAIL_STORE_DIR"
install -d -m 750 -o opendkim -g opendkim "$MAIL_DKIM_DIR"
install -d -m 755 "$MAIL_STATE_DIR/postfix-queue" && install -d -m 700 -o postfix "$MAIL_STATE_DIR/postfix-data"
install -d -m 755 "$MAIL_STATE_DIR/dovecot-base" "$MAIL_STATE_DIR/dovecot-state"
install -d -m 750 -o opendkim -g opendkim "$RUN_DIR/opendkim"

# 3. The read-only database role: SELECT on the two views, nothing else.
eval "$(node -e '
  const u = new URL(process.argv[1]);
  const q = (s) => "\x27" + s.replace(/\x27/g, "\x27\\\x27\x27") + "\x27";
  console.log(`db_host=${q(u.hostname || "127.0.0.1")} db_port=${q(u.port || "5432")} db_name=${q(decodeURIComponent(u.pathname.slice(1)) || "postgres")}`);
' "$DATABASE_URL")"
password_file=$MAIL_CONFIG_DIR/db-password
if [ -n "${MAIL_DB_PASSWORD:-}" ]; then db_password=$MAIL_DB_PASSWORD
elif [ -s "$password_file" ]; then db_password=$(cat "$password_file")
else db_password=$(openssl rand -hex 24); fi
(umask 077; printf '%s' "$db_password" > "$password_file")
psql "$DATABASE_URL" -v ON_ERROR_STOP=1 -q -v role="$MAIL_DB_ROLE" -v pw="$db_password" -v db="$db_name" <<'SQL' >/dev/null
SELECT format('CREATE ROLE %I LOGIN', :'role') WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'role') \gexec
SELECT format('ALTER ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD %L', :'role', :'pw') \gexec
SELECT format('GRANT CONNECT ON DATABASE %I TO %I', :'db', :'role') \gexec
SELECT format('GRANT USAGE ON SCHEMA public TO %I', :'role') \gexec
SELECT format('GRANT SELECT ON mail_domains_view, mail_users_view TO %I', :'role') \gexec
SQL

# 4. TLS: the given pair, else a self-signed one for MAIL_HOST (made once).
if [ -z "$MAIL_TLS_CERT" ] || [ -z "$MAIL_TLS_KEY" ]; then
  MAIL_TLS_CERT=$MAIL_CONFIG_DIR/tls/cert.pem; MAIL_TLS_KEY=$MAIL_CONFIG_DIR/tls/key.pem
  if [ ! -s "$MAIL_TLS_CERT" ]; then
    install -d -m 700 "$MAIL_CONFIG_DIR/tls"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=$MAIL_HOST" -keyout "$MAIL_TLS_KEY" -out "$MAIL_TLS_CERT" 2>/dev/null
  fi
fi

# 5. Postfix.
listen=$MAIL_LISTEN; [ "$listen" = all ] && inet=all || inet=$listen
pg_map() { # name query
  (umask 027; cat > "$POSTFIX_DIR/$1.cf" <<CF
hosts = $db_host:$db_port
dbname = $db_name
user = $MAIL_DB_ROLE
password = $db_password
query = $2
CF
  ); chgrp postfix "$POSTFIX_DIR/$1.cf"
}
pg_map pg-domains "SELECT 1 FROM mail_domains_view WHERE domain = '%s'"
pg_map pg-mailboxes "SELECT 1 FROM mail_users_view WHERE email = lower('%s') AND active"
pg_map pg-senders "SELECT email FROM mail_users_view WHERE email = lower('%s') AND active"
pg_map pg-sender-domains "SELECT 'OK' FROM mail_domains_view WHERE domain = lower('%d')"
cat > "$POSTFIX_DIR/main.cf" <<CF
# Generated by scripts/mail/setup.sh: edits are overwritten.
compatibility_level = 3.6
myhostname = $MAIL_HOST
mydestination =
mynetworks = 127.0.0.0/8
local_recipient_maps =
local_transport = error:local delivery is disabled
alias_maps =
alias_database =
inet_interfaces = $inet
inet_protocols = ipv4
queue_directory = $MAIL_STATE_DIR/postfix-queue
data_directory = $MAIL_STATE_DIR/postfix-data
maillog_file = $MAIL_STATE_DIR/postfix.log
maillog_file_prefixes = /var, /dev/stdout, $MAIL_STATE_DIR
biff = no
append_dot_mydomain = no
smtputf8_enable = no
# Mail for the platform's mailboxes: verified domains, active mailboxes; delivered to Dovecot.
virtual_mailbox_domains = pgsql:$POSTFIX_DIR/pg-domains.cf
virtual_mailbox_maps = pgsql:$POSTFIX_DIR/pg-mailboxes.cf
virtual_transport = lmtp:unix:$MAIL_STATE_DIR/dovecot-base/lmtp
smtpd_sender_login_maps = pgsql:$POSTFIX_DIR/pg-senders.cf
# Port 25: no relaying for anyone; unknown mailboxes and unverified domains refused at RCPT, and a
# full mailbox too (Dovecot's quota-status policy), so nothing is accepted and bounced later.
smtpd_relay_restrictions = reject_unauth_destination
smtpd_recipient_restrictions = reject_unauth_destination, check_policy_service unix:$MAIL_STATE_DIR/dovecot-base/quota-status
smtpd_helo_required = yes
disable_vrfy_command = yes
smtpd_tls_cert_file = $MAIL_TLS_CERT
smtpd_tls_key_file = $MAIL_TLS_KEY
smtpd_tls_security_level = may
smtp_tls_security_level = may
message_size_limit = 52428800
CF
cat > "$POSTFIX_DIR/master.cf" <<CF
# Generated by scripts/mail/setup.sh: edits are overwritten. Nothing runs chrooted.
$MAIL_SMTP_PORT inet n - n - - smtpd
$MAIL_SUBMISSION_PORT inet n - n - - smtpd
  -o syslog_name=postfix/submissions
  -o smtpd_tls_wrappermode=yes
  -o smtpd_tls_security_level=encrypt
  -o smtpd_sasl_auth_enable=yes
  -o smtpd_sasl_type=dovecot
  -o smtpd_sasl_path=$MAIL_STATE_DIR/dovecot-base/auth-client
  -o smtpd_sasl_authenticated_header=no
  -o smtpd_client_restrictions=permit_sasl_authenticated,reject
  -o smtpd_sender_restrictions=reject_sender_login_mismatch
  -o smtpd_relay_restrictions=permit_sasl_authenticated,reject
  -o smtpd_recipient_restrictions=permit_sasl_authenticated,reject
  -o smtpd_milters=inet:127.0.0.1:$MAIL_DKIM_PORT
  -o milter_default_action=tempfail
  -o milter_macro_daemon_name=ORIGINATING
CF
# The platform's own submission (project mail from a project's verified domain): loopback only,
# trusted by address (mynetworks = 127.0.0.0/8), signed like the submission service; only a sender
# on a verified domain is taken. Opt-in: any local process can use it.
if [ -n "${MAIL_PLATFORM_PORT:-}" ]; then
  cat >> "$POSTFIX_DIR/master.cf" <<CF
127.0.0.1:$MAIL_PLATFORM_PORT inet n - n - - smtpd
  -o syslog_name=postfix/platform
  -o smtpd_client_restrictions=permit_mynetworks,reject
  -o smtpd_sender_restrictions=check_sender_access,pgsql:$POSTFIX_DIR/pg-sender-domains.cf,reject
  -o smtpd_relay_restrictions=permit_mynetworks,reject
  -o smtpd_recipient_restrictions=permit_mynetworks,reject
  -o smtpd_milters=inet:127.0.0.1:$MAIL_DKIM_PORT
  -o milter_default_action=tempfail
  -o milter_macro_daemon_name=ORIGINATING
CF
fi
cat >> "$POSTFIX_DIR/master.cf" <<CF
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
tlsmgr    unix  -       -       n       1000?   1       tlsmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
proxywrite unix -       -       n       -       1       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
local     unix  -       n       n       -       -       local
virtual   unix  -       n       n       -       -       virtual
lmtp      unix  -       -       n       -       -       lmtp
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
CF

# 6. Dovecot.
cat > "$MAIL_CONFIG_DIR/dovecot/sql.conf.ext" <<CF
driver = pgsql
connect = host=$db_host port=$db_port dbname=$db_name user=$MAIL_DB_ROLE password=$db_password
default_pass_scheme = ARGON2ID
password_query = SELECT email AS user, password_hash AS password FROM mail_users_view WHERE email = '%Lu' AND active
user_query = SELECT email AS user, '*:bytes=' || quota_bytes AS quota_rule FROM mail_users_view WHERE email = '%Lu' AND active
iterate_query = SELECT email AS user FROM mail_users_view WHERE active
CF
chmod 600 "$MAIL_CONFIG_DIR/dovecot/sql.conf.ext"
dovecot_listen='*'; [ "$listen" = all ] || dovecot_listen=$listen
cat > "$DOVECOT_CONF" <<CF
# Generated by scripts/mail/setup.sh: edits are overwritten.
protocols = imap lmtp
instance_name = hostbase-mail-$MAIL_IMAP_PORT
base_dir = $MAIL_STATE_DIR/dovecot-base
state_dir = $MAIL_STATE_DIR/dovecot-state
log_path = $MAIL_STATE_DIR/dovecot.log
listen = $dovecot_listen
ssl = required
ssl_cert = <$MAIL_TLS_CERT
ssl_key = <$MAIL_TLS_KEY
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = yes
auth_mechanisms = plain login
auth_username_format = %Lu
mail_location = maildir:$MAIL_STORE_DIR/%Ld/%Ln
mail_uid = $vmail_uid
mail_gid = $vmail_gid
first_valid_uid = $vmail_uid
last_valid_uid = $vmail_uid
mail_plugins = \$mail_plugins quota
lda_mailbox_autocreate = yes
namespace inbox {
  inbox = yes
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox Junk {
    special_use = \\Junk
    auto = subscribe
  }
}
passdb {
  driver = sql
  args = $MAIL_CONFIG_DIR/dovecot/sql.conf.ext
}
userdb {
  driver = sql
  args = $MAIL_CONFIG_DIR/dovecot/sql.conf.ext
}
protocol imap {
  mail_plugins = \$mail_plugins imap_quota
}
protocol lmtp {
  mail_plugins = \$mail_plugins
}
service imap-login {
  inet_listener imap {
    port = 0
  }
  inet_listener imaps {
    port = $MAIL_IMAP_PORT
    ssl = yes
  }
}
service lmtp {
  unix_listener lmtp {
    mode = 0600
    user = postfix
    group = postfix
  }
}
service auth {
  unix_listener auth-client {
    mode = 0660
    user = postfix
    group = postfix
  }
  unix_listener auth-userdb {
    mode = 0600
  }
}
service quota-status {
  executable = quota-status -p postfix
  unix_listener quota-status {
    mode = 0600
    user = postfix
  }
  client_limit = 1
}
plugin {
  quota = maildir:User quota
  quota_rule = *:storage=5G
  quota_status_success = DUNNO
  quota_status_nouser = DUNNO
  quota_status_overquota = "552 5.2.2 Mailbox is full"
}
CF

# 7. OpenDKIM: signs what the submission service hands it, with the keys sync-dkim-keys writes.
for f in KeyTable SigningTable; do [ -e "$MAIL_DKIM_DIR/$f" ] || install -m 640 -o opendkim -g opendkim /dev/null "$MAIL_DKIM_DIR/$f"; done
cat > "$OPENDKIM_CONF" <<CF
# Generated by scripts/mail/setup.sh: edits are overwritten.
Syslog                  yes
LogWhy                  yes
Background              yes
UserID                  opendkim:opendkim
UMask                   007
Mode                    s
Socket                  inet:$MAIL_DKIM_PORT@127.0.0.1
PidFile                 $RUN_DIR/opendkim/opendkim.pid
Canonicalization        relaxed/simple
SignatureAlgorithm      rsa-sha256
OversignHeaders         From
KeyTable                file:$MAIL_DKIM_DIR/KeyTable
SigningTable            refile:$MAIL_DKIM_DIR/SigningTable
InternalHosts           127.0.0.1
MTA                     ORIGINATING
CF
# OpenDKIM re-reads it as its own user on SIGUSR1 (after the platform wrote new keys).
chmod 644 "$OPENDKIM_CONF"

# 8. The keys of the verified domains, when the platform's secret is at hand (JWT_SECRET in the
#    environment); else the platform writes them itself after each verification (MAIL_DKIM_DIR).
if [ -n "${JWT_SECRET:-}" ]; then "$here/sync-dkim-keys.sh"; fi

postfix -c "$POSTFIX_DIR" check
doveconf -c "$DOVECOT_CONF" -n >/dev/null
echo "mail servers configured in $MAIL_CONFIG_DIR (state in $MAIL_STATE_DIR); start them with scripts/mail/start.sh"
