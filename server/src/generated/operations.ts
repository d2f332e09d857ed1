// DO NOT EDIT. Generated from openapi.yaml by `npm run gen`.
export const operations = [
  {
    "operationId": "activateDeployment",
    "method": "POST",
    "path": "/project/{projectId}/deployments/{deploymentId}/activate",
    "tag": "hosting"
  },
  {
    "operationId": "addAuthUser",
    "method": "POST",
    "path": "/project/{projectId}/auth/add_user",
    "tag": "authUsers"
  },
  {
    "operationId": "addDbColumn",
    "method": "POST",
    "path": "/project/{projectId}/database/add_column",
    "tag": "database"
  },
  {
    "operationId": "addSiteDomain",
    "method": "POST",
    "path": "/project/{projectId}/hosting/add_domain",
    "tag": "hosting"
  },
  {
    "operationId": "addSmtpAccount",
    "method": "POST",
    "path": "/project/{projectId}/smtp/add_account",
    "tag": "smtp"
  },
  {
    "operationId": "addSmtpDomain",
    "method": "POST",
    "path": "/project/{projectId}/smtp/add_domain",
    "tag": "smtp"
  },
  {
    "operationId": "bucketDeleteObject",
    "method": "DELETE",
    "path": "/storage/v1/objects/{objectId}",
    "tag": "bucket"
  },
  {
    "operationId": "bucketDownloadObject",
    "method": "GET",
    "path": "/storage/v1/objects/{objectId}",
    "tag": "bucket"
  },
  {
    "operationId": "bucketListObjects",
    "method": "GET",
    "path": "/storage/v1/objects",
    "tag": "bucket"
  },
  {
    "operationId": "bucketShareObject",
    "method": "PUT",
    "path": "/storage/v1/objects/{objectId}/share",
    "tag": "bucket"
  },
  {
    "operationId": "bucketUnshareObject",
    "method": "DELETE",
    "path": "/storage/v1/objects/{objectId}/share",
    "tag": "bucket"
  },
  {
    "operationId": "bucketUploadObject",
    "method": "POST",
    "path": "/storage/v1/objects",
    "tag": "bucket"
  },
  {
    "operationId": "changePassword",
    "method": "POST",
    "path": "/change_pass",
    "tag": "accounts"
  },
  {
    "operationId": "changeSmtpAccountPassword",
    "method": "POST",
    "path": "/project/{projectId}/smtp/change_pass",
    "tag": "smtp"
  },
  {
    "operationId": "checkSubdomain",
    "method": "POST",
    "path": "/check_subdomain",
    "tag": "projects"
  },
  {
    "operationId": "completeTestPayment",
    "method": "POST",
    "path": "/pay/test-checkout",
    "tag": "payments"
  },
  {
    "operationId": "confirmEmail",
    "method": "POST",
    "path": "/verify-email",
    "tag": "accounts"
  },
  {
    "operationId": "confirmEmailLink",
    "method": "GET",
    "path": "/verify/{token}",
    "tag": "accounts"
  },
  {
    "operationId": "consoleDeleteDbRows",
    "method": "POST",
    "path": "/project/{projectId}/database/tables/{table}/rows/delete",
    "tag": "database"
  },
  {
    "operationId": "consoleInsertDbRows",
    "method": "POST",
    "path": "/project/{projectId}/database/tables/{table}/rows/insert",
    "tag": "database"
  },
  {
    "operationId": "consoleSelectDbRows",
    "method": "POST",
    "path": "/project/{projectId}/database/tables/{table}/rows/select",
    "tag": "database"
  },
  {
    "operationId": "consoleUpdateDbRows",
    "method": "POST",
    "path": "/project/{projectId}/database/tables/{table}/rows/update",
    "tag": "database"
  },
  {
    "operationId": "createConsoleSignedUrl",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/sign",
    "tag": "storage"
  },
  {
    "operationId": "createDbTable",
    "method": "POST",
    "path": "/project/{projectId}/database/create_table",
    "tag": "database"
  },
  {
    "operationId": "createManifestDeployment",
    "method": "POST",
    "path": "/project/{projectId}/deployments/manifest",
    "tag": "hosting"
  },
  {
    "operationId": "createObjectSignedLink",
    "method": "POST",
    "path": "/storage/v1/objects/{objectId}/signed-links",
    "tag": "bucket"
  },
  {
    "operationId": "createOrder",
    "method": "POST",
    "path": "/create-order/",
    "tag": "payments"
  },
  {
    "operationId": "createProject",
    "method": "POST",
    "path": "/create-project",
    "tag": "projects"
  },
  {
    "operationId": "createProjectAlias",
    "method": "POST",
    "path": "/create_project",
    "tag": "projects"
  },
  {
    "operationId": "createSignedLink",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/signed-links/create",
    "tag": "storage"
  },
  {
    "operationId": "createSignedUrl",
    "method": "POST",
    "path": "/storage/v1/object/sign/{objectId}",
    "tag": "bucket"
  },
  {
    "operationId": "createSignedUrls",
    "method": "POST",
    "path": "/storage/v1/object/sign",
    "tag": "bucket"
  },
  {
    "operationId": "deleteAuthUser",
    "method": "POST",
    "path": "/project/{projectId}/auth/delete_user",
    "tag": "authUsers"
  },
  {
    "operationId": "deleteDbRows",
    "method": "POST",
    "path": "/db/v1/{table}/delete",
    "tag": "data"
  },
  {
    "operationId": "deleteObjects",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/delete",
    "tag": "storage"
  },
  {
    "operationId": "deleteProject",
    "method": "POST",
    "path": "/project/{projectId}/delete",
    "tag": "projects"
  },
  {
    "operationId": "deleteSite",
    "method": "POST",
    "path": "/project/{projectId}/hosting/delete",
    "tag": "hosting"
  },
  {
    "operationId": "deleteStorageRule",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/rules/delete",
    "tag": "storage"
  },
  {
    "operationId": "downloadObject",
    "method": "GET",
    "path": "/s3/object-storage/{segment}/{objectId}",
    "tag": "storage"
  },
  {
    "operationId": "downloadPublicObject",
    "method": "GET",
    "path": "/storage/v1/object/public/{objectId}",
    "tag": "bucket"
  },
  {
    "operationId": "downloadSignedObject",
    "method": "GET",
    "path": "/storage/v1/signed/{token}",
    "tag": "bucket"
  },
  {
    "operationId": "downloadSignedUrl",
    "method": "GET",
    "path": "/storage/v1/object/sign/{objectId}",
    "tag": "bucket"
  },
  {
    "operationId": "dropDbColumn",
    "method": "POST",
    "path": "/project/{projectId}/database/drop_column",
    "tag": "database"
  },
  {
    "operationId": "dropDbTable",
    "method": "POST",
    "path": "/project/{projectId}/database/drop_table",
    "tag": "database"
  },
  {
    "operationId": "endUserConfirmEmail",
    "method": "POST",
    "path": "/auth/v1/verify",
    "tag": "endUserAuth"
  },
  {
    "operationId": "endUserGetCurrent",
    "method": "GET",
    "path": "/auth/v1/user",
    "tag": "endUserAuth"
  },
  {
    "operationId": "endUserRefresh",
    "method": "POST",
    "path": "/auth/v1/refresh",
    "tag": "endUserAuth"
  },
  {
    "operationId": "endUserRequestPasswordReset",
    "method": "POST",
    "path": "/auth/v1/recover",
    "tag": "endUserAuth"
  },
  {
    "operationId": "endUserResetPassword",
    "method": "POST",
    "path": "/auth/v1/reset",
    "tag": "endUserAuth"
  },
  {
    "operationId": "endUserSendVerification",
    "method": "POST",
    "path": "/auth/v1/verify/send",
    "tag": "endUserAuth"
  },
  {
    "operationId": "endUserSignIn",
    "method": "POST",
    "path": "/auth/v1/signin",
    "tag": "endUserAuth"
  },
  {
    "operationId": "endUserSignOut",
    "method": "POST",
    "path": "/auth/v1/signout",
    "tag": "endUserAuth"
  },
  {
    "operationId": "endUserSignUp",
    "method": "POST",
    "path": "/auth/v1/signup",
    "tag": "endUserAuth"
  },
  {
    "operationId": "exportProject",
    "method": "POST",
    "path": "/project/{projectId}/export",
    "tag": "projects"
  },
  {
    "operationId": "finishDeployment",
    "method": "POST",
    "path": "/project/{projectId}/deployments/{deploymentId}/finish",
    "tag": "hosting"
  },
  {
    "operationId": "forgotPassword",
    "method": "POST",
    "path": "/forgetPassword",
    "tag": "accounts"
  },
  {
    "operationId": "forgotPasswordAlias",
    "method": "POST",
    "path": "/forgot_pass",
    "tag": "accounts"
  },
  {
    "operationId": "getAccountDetails",
    "method": "POST",
    "path": "/account-details",
    "tag": "accounts"
  },
  {
    "operationId": "getAccountUsage",
    "method": "POST",
    "path": "/usage",
    "tag": "usage"
  },
  {
    "operationId": "getAuthenticationDetails",
    "method": "POST",
    "path": "/project/{projectId}/authentication-details",
    "tag": "projects"
  },
  {
    "operationId": "getBilling",
    "method": "GET",
    "path": "/billing",
    "tag": "payments"
  },
  {
    "operationId": "getBucketDetails",
    "method": "POST",
    "path": "/project/{projectId}/bucket-details",
    "tag": "projects"
  },
  {
    "operationId": "getBuildSettings",
    "method": "POST",
    "path": "/project/{projectId}/hosting/build-settings",
    "tag": "hosting"
  },
  {
    "operationId": "getContainerStats",
    "method": "POST",
    "path": "/project/{projectId}/container-stats/",
    "tag": "hosting"
  },
  {
    "operationId": "getDeploymentLogs",
    "method": "POST",
    "path": "/project/{projectId}/deployments/{deploymentId}/logs",
    "tag": "hosting"
  },
  {
    "operationId": "getDeveloper",
    "method": "GET",
    "path": "/developers/{id}",
    "tag": "accounts"
  },
  {
    "operationId": "getEmailVerified",
    "method": "POST",
    "path": "/email-verified",
    "tag": "accounts"
  },
  {
    "operationId": "getHealth",
    "method": "GET",
    "path": "/health",
    "tag": "system"
  },
  {
    "operationId": "getProjectApiKeys",
    "method": "POST",
    "path": "/project/{projectId}/api-keys",
    "tag": "projects"
  },
  {
    "operationId": "getProjectDetails",
    "method": "POST",
    "path": "/project/project-details/",
    "tag": "projects"
  },
  {
    "operationId": "getProjectUsage",
    "method": "POST",
    "path": "/project/{projectId}/usage",
    "tag": "usage"
  },
  {
    "operationId": "getSiteTraffic",
    "method": "POST",
    "path": "/project/{projectId}/hosting/traffic",
    "tag": "hosting"
  },
  {
    "operationId": "getSmtpDomainDetails",
    "method": "POST",
    "path": "/project/{projectId}/smtp/smtp_domain_details",
    "tag": "smtp"
  },
  {
    "operationId": "insertDbRows",
    "method": "POST",
    "path": "/db/v1/{table}/insert",
    "tag": "data"
  },
  {
    "operationId": "listAccountActivity",
    "method": "POST",
    "path": "/activity",
    "tag": "activity"
  },
  {
    "operationId": "listAccountErrors",
    "method": "POST",
    "path": "/errors",
    "tag": "activity"
  },
  {
    "operationId": "listAuthUsers",
    "method": "POST",
    "path": "/project/{projectId}/auth/users_list",
    "tag": "authUsers"
  },
  {
    "operationId": "listDbTables",
    "method": "POST",
    "path": "/project/{projectId}/database/tables",
    "tag": "database"
  },
  {
    "operationId": "listDeployments",
    "method": "POST",
    "path": "/project/{projectId}/deployments",
    "tag": "hosting"
  },
  {
    "operationId": "listObjects",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/files",
    "tag": "storage"
  },
  {
    "operationId": "listPlans",
    "method": "GET",
    "path": "/plans",
    "tag": "payments"
  },
  {
    "operationId": "listProjectActivity",
    "method": "POST",
    "path": "/project/{projectId}/activity",
    "tag": "activity"
  },
  {
    "operationId": "listProjectErrors",
    "method": "POST",
    "path": "/project/{projectId}/errors",
    "tag": "activity"
  },
  {
    "operationId": "listProjects",
    "method": "POST",
    "path": "/projects",
    "tag": "projects"
  },
  {
    "operationId": "listSignedLinks",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/signed-links",
    "tag": "storage"
  },
  {
    "operationId": "listSiteDomains",
    "method": "POST",
    "path": "/project/{projectId}/hosting/domains",
    "tag": "hosting"
  },
  {
    "operationId": "listSiteEnv",
    "method": "POST",
    "path": "/project/{projectId}/hosting/env",
    "tag": "hosting"
  },
  {
    "operationId": "listSites",
    "method": "POST",
    "path": "/hosting/sites",
    "tag": "hosting"
  },
  {
    "operationId": "listSmtpAccounts",
    "method": "POST",
    "path": "/project/{projectId}/smtp/accounts",
    "tag": "smtp"
  },
  {
    "operationId": "listStorageRules",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/rules",
    "tag": "storage"
  },
  {
    "operationId": "loginAccount",
    "method": "POST",
    "path": "/verify_user",
    "tag": "accounts"
  },
  {
    "operationId": "razorpayWebhook",
    "method": "POST",
    "path": "/webhooks/razorpay",
    "tag": "payments"
  },
  {
    "operationId": "registerAccount",
    "method": "POST",
    "path": "/register",
    "tag": "accounts"
  },
  {
    "operationId": "removeSiteDomain",
    "method": "POST",
    "path": "/project/{projectId}/hosting/remove_domain",
    "tag": "hosting"
  },
  {
    "operationId": "removeSmtpAccount",
    "method": "POST",
    "path": "/project/{projectId}/smtp/remove_account",
    "tag": "smtp"
  },
  {
    "operationId": "removeSmtpDomain",
    "method": "POST",
    "path": "/project/{projectId}/smtp/remove_domain",
    "tag": "smtp"
  },
  {
    "operationId": "renameDbColumn",
    "method": "POST",
    "path": "/project/{projectId}/database/rename_column",
    "tag": "database"
  },
  {
    "operationId": "resetAuthUserPassword",
    "method": "POST",
    "path": "/project/{projectId}/auth/reset_password",
    "tag": "authUsers"
  },
  {
    "operationId": "resetPassword",
    "method": "POST",
    "path": "/reset_password/{token}",
    "tag": "accounts"
  },
  {
    "operationId": "revokeObjectSignedLink",
    "method": "DELETE",
    "path": "/storage/v1/signed-links/{linkId}",
    "tag": "bucket"
  },
  {
    "operationId": "revokeSignedLink",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/signed-links/revoke",
    "tag": "storage"
  },
  {
    "operationId": "rotateProjectKey",
    "method": "POST",
    "path": "/project/{projectId}/rotate-key",
    "tag": "projects"
  },
  {
    "operationId": "runDbSql",
    "method": "POST",
    "path": "/project/{projectId}/database/sql",
    "tag": "database"
  },
  {
    "operationId": "selectDbRows",
    "method": "POST",
    "path": "/db/v1/{table}/select",
    "tag": "data"
  },
  {
    "operationId": "sendEmailVerification",
    "method": "POST",
    "path": "/send_email_verification",
    "tag": "accounts"
  },
  {
    "operationId": "setBuildSettings",
    "method": "POST",
    "path": "/project/{projectId}/hosting/build-settings/set",
    "tag": "hosting"
  },
  {
    "operationId": "setDbTableAccess",
    "method": "POST",
    "path": "/project/{projectId}/database/set_access",
    "tag": "database"
  },
  {
    "operationId": "setSiteEnv",
    "method": "POST",
    "path": "/project/{projectId}/hosting/env/set",
    "tag": "hosting"
  },
  {
    "operationId": "setStorageRule",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/rules/set",
    "tag": "storage"
  },
  {
    "operationId": "shareObject",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/share",
    "tag": "storage"
  },
  {
    "operationId": "startPayment",
    "method": "POST",
    "path": "/pay",
    "tag": "payments"
  },
  {
    "operationId": "streamDeploymentLog",
    "method": "GET",
    "path": "/project/{projectId}/deployments/{deploymentId}/log-stream",
    "tag": "hosting"
  },
  {
    "operationId": "submitContactMessage",
    "method": "POST",
    "path": "/contact",
    "tag": "contact"
  },
  {
    "operationId": "subscribeDbChanges",
    "method": "GET",
    "path": "/db/v1/{table}/changes",
    "tag": "data"
  },
  {
    "operationId": "toggleMfa",
    "method": "POST",
    "path": "/toggle-mfa",
    "tag": "accounts"
  },
  {
    "operationId": "unpublishSite",
    "method": "POST",
    "path": "/project/{projectId}/hosting/unpublish",
    "tag": "hosting"
  },
  {
    "operationId": "unsetSiteEnv",
    "method": "POST",
    "path": "/project/{projectId}/hosting/env/unset",
    "tag": "hosting"
  },
  {
    "operationId": "unshareObject",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/unshare",
    "tag": "storage"
  },
  {
    "operationId": "updateAuthSettings",
    "method": "POST",
    "path": "/project/{projectId}/auth/settings",
    "tag": "authUsers"
  },
  {
    "operationId": "updateDbRows",
    "method": "POST",
    "path": "/db/v1/{table}/update",
    "tag": "data"
  },
  {
    "operationId": "uploadDeploymentFiles",
    "method": "POST",
    "path": "/project/{projectId}/deployments/{deploymentId}/files",
    "tag": "hosting"
  },
  {
    "operationId": "uploadObject",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/upload",
    "tag": "storage"
  },
  {
    "operationId": "uploadSiteZip",
    "method": "POST",
    "path": "/project/{projectId}/upload-and-extract-zip/",
    "tag": "hosting"
  },
  {
    "operationId": "verifyMfaCode",
    "method": "POST",
    "path": "/verifyMFACode",
    "tag": "accounts"
  },
  {
    "operationId": "verifyMfaCodeAlias",
    "method": "POST",
    "path": "/verify-mfa-code",
    "tag": "accounts"
  },
  {
    "operationId": "verifyPayment",
    "method": "POST",
    "path": "/verify-payment/",
    "tag": "payments"
  },
  {
    "operationId": "verifySiteDomain",
    "method": "POST",
    "path": "/project/{projectId}/hosting/verify_domain",
    "tag": "hosting"
  },
  {
    "operationId": "verifySmtpDomain",
    "method": "POST",
    "path": "/project/{projectId}/smtp/smtp_domain_verify",
    "tag": "smtp"
  },
  {
    "operationId": "verifyToken",
    "method": "POST",
    "path": "/verify-token",
    "tag": "accounts"
  },
  {
    "operationId": "verifyTokenAlias",
    "method": "POST",
    "path": "/verifyToken",
    "tag": "accounts"
  }
] as const;

export type OperationId = (typeof operations)[number]['operationId'];
