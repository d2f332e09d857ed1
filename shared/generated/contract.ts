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
    "type": "string",
    "pattern": "^[^\\u0000\\uD800-\\uDFFF]*$",
    "minLength": 8,
    "maxLength": 1024,
    "x-messages": {
      "minLength": "Password must be at least 8 characters"
    }
  },
  "Origin": {
    "type": "string",
    "maxLength": 255,
    "pattern": "^(?!.*xn--)(?!http://[^/]*:80/?$)(?!https://[^/]*:443/?$)https?://(?:(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)*[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.?|(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9]))(?::(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?/?$",
    "x-messages": {
      "pattern": "must be an origin like https://app.example.com (scheme, host and optional port; no path)"
    }
  },
  "SiteUrl": {
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
        "nullable": true
      },
      "block_common_passwords": {
        "type": "boolean"
      }
    }
  }
} as const;

export const PROJECT_TYPES = schemas.ProjectType.enum;
export type ProjectType = (typeof PROJECT_TYPES)[number];
export const PASSWORD_MIN = schemas.NewPassword.minLength;
export const MAX_ALLOWED_ORIGINS = schemas.AuthSettings.properties.allowed_origins.maxItems;
