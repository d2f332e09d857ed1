// DO NOT EDIT. Generated from openapi.yaml by `npm run gen`.
// Imported by the server and the console (no dependencies).
export const schemas = {
  "ProjectType": {
    "type": "string",
    "enum": [
      "Node",
      "PHP",
      "React",
      "Vite",
      "Angular",
      "Flask",
      "Next.js",
      "Vue",
      "Astro",
      "Static",
      "Node.js"
    ],
    "x-messages": {
      "enum": "Unknown project type. Choose one of: {allowed}."
    }
  },
  "NewPassword": {
    "description": "A new password (sign-up, reset, change; a project's end users too): at least 8 characters\n(counted as Unicode code points) and at most 1024. The server also refuses very common\npasswords and ones that contain the e-mail's local part or the name (400 with the reason).\n",
    "type": "string",
    "minLength": 8,
    "maxLength": 1024,
    "x-messages": {
      "minLength": "Password must be at least 8 characters"
    }
  },
  "MailboxPassword": {
    "description": "A mailbox password: at least 8 characters, with an uppercase letter, a lowercase letter, a\ndigit and one of ! @ # $ % ^ & *.\n",
    "type": "string",
    "minLength": 8,
    "maxLength": 1024,
    "pattern": "^(?=.*[A-Z])(?=.*[a-z])(?=.*[0-9])(?=.*[!@#$%^&*]).*$",
    "x-messages": {
      "minLength": "Password must be at least 8 characters"
    }
  },
  "Origin": {
    "description": "An exact origin, scheme://host[:port] with http or https, no path, wildcard or credentials, the\nway a browser sends it in Origin (a default port such as :443 is left out). A trailing slash is dropped.\n",
    "type": "string",
    "maxLength": 255,
    "pattern": "^(?!.*xn--)(?!http://[^/]*:80/?$)(?!https://[^/]*:443/?$)https?://(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)*[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.?|(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))(?::[1-9][0-9]{0,3})?/?$",
    "x-messages": {
      "pattern": "must be an origin like https://app.example.com (scheme, host and optional port; no path)"
    }
  },
  "SiteUrl": {
    "description": "Base URL of the developer's app for reset and verification links: http or https, a host, an\noptional port and path, no query, fragment or credentials; stored without a trailing slash.\nAn empty string or null clears it.\n",
    "type": "string",
    "nullable": true,
    "maxLength": 2048,
    "pattern": "^$|^(?![^/]*//[^/?#]*xn--)https?://(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)*[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.?|(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))(?::[0-9]{1,4})?(?:/[^\\s?#]*)?$",
    "x-messages": {
      "pattern": "must be an http(s) URL without query, fragment or credentials"
    }
  },
  "AuthSettings": {
    "type": "object",
    "required": [
      "allowed_origins"
    ],
    "properties": {
      "allowed_origins": {
        "type": "array",
        "maxItems": 50,
        "items": {
          "type": "string",
          "maxLength": 255
        }
      },
      "site_url": {
        "type": "string",
        "maxLength": 2048,
        "nullable": true,
        "description": "Base URL of the developer's app for reset and verification links."
      },
      "block_common_passwords": {
        "type": "boolean",
        "description": "Refuse the 10,000 most common passwords and passwords containing the user's e-mail address (default true)."
      }
    }
  }
} as const;

export const PROJECT_TYPES = schemas.ProjectType.enum;
export type ProjectType = (typeof PROJECT_TYPES)[number];
export const PASSWORD_MIN = schemas.NewPassword.minLength;
export const MAILBOX_PASSWORD_MIN = schemas.MailboxPassword.minLength;
export const MAX_ALLOWED_ORIGINS = schemas.AuthSettings.properties.allowed_origins.maxItems;
