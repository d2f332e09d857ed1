// DO NOT EDIT. Generated from openapi.yaml by `npm run gen`.
export const operations = [
  {
    "operationId": "activateDeployment",
    "method": "POST",
    "path": "/project/{projectId}/deployments/{deploymentId}/activate",
    "tag": "Hosting"
  },
  {
    "operationId": "addAuthUser",
    "method": "POST",
    "path": "/project/{projectId}/auth/add_user",
    "tag": "End users"
  },
  {
    "operationId": "addDbColumn",
    "method": "POST",
    "path": "/project/{projectId}/database/add_column",
    "tag": "Database"
  },
  {
    "operationId": "addSiteDomain",
    "method": "POST",
    "path": "/project/{projectId}/hosting/add_domain",
    "tag": "Hosting"
  },
  {
    "operationId": "addSmtpAccount",
    "method": "POST",
    "path": "/project/{projectId}/smtp/add_account",
    "tag": "Mail"
  },
  {
    "operationId": "addSmtpDomain",
    "method": "POST",
    "path": "/project/{projectId}/smtp/add_domain",
    "tag": "Mail"
  },
  {
    "operationId": "bucketDeleteObject",
    "method": "DELETE",
    "path": "/storage/v1/objects/{objectId}",
    "tag": "Storage for apps"
  },
  {
    "operationId": "bucketDownloadObject",
    "method": "GET",
    "path": "/storage/v1/objects/{objectId}",
    "tag": "Storage for apps"
  },
  {
    "operationId": "bucketListObjects",
    "method": "GET",
    "path": "/storage/v1/objects",
    "tag": "Storage for apps"
  },
  {
    "operationId": "bucketShareObject",
    "method": "PUT",
    "path": "/storage/v1/objects/{objectId}/share",
    "tag": "Storage for apps"
  },
  {
    "operationId": "bucketUnshareObject",
    "method": "DELETE",
    "path": "/storage/v1/objects/{objectId}/share",
    "tag": "Storage for apps"
  },
  {
    "operationId": "bucketUploadObject",
    "method": "POST",
    "path": "/storage/v1/objects",
    "tag": "Storage for apps"
  },
  {
    "operationId": "changePassword",
    "method": "POST",
    "path": "/change_pass",
    "tag": "Accounts"
  },
  {
    "operationId": "changeSmtpAccountPassword",
    "method": "POST",
    "path": "/project/{projectId}/smtp/change_pass",
    "tag": "Mail"
  },
  {
    "operationId": "checkSubdomain",
    "method": "POST",
    "path": "/check_subdomain",
    "tag": "Projects"
  },
  {
    "operationId": "completeTestPayment",
    "method": "POST",
    "path": "/pay/test-checkout",
    "tag": "Payments"
  },
  {
    "operationId": "confirmEmail",
    "method": "POST",
    "path": "/verify-email",
    "tag": "Accounts"
  },
  {
    "operationId": "confirmEmailLink",
    "method": "GET",
    "path": "/verify/{token}",
    "tag": "Accounts"
  },
  {
    "operationId": "consoleDeleteDbRows",
    "method": "POST",
    "path": "/project/{projectId}/database/tables/{table}/rows/delete",
    "tag": "Database"
  },
  {
    "operationId": "consoleInsertDbRows",
    "method": "POST",
    "path": "/project/{projectId}/database/tables/{table}/rows/insert",
    "tag": "Database"
  },
  {
    "operationId": "consoleSelectDbRows",
    "method": "POST",
    "path": "/project/{projectId}/database/tables/{table}/rows/select",
    "tag": "Database"
  },
  {
    "operationId": "consoleUpdateDbRows",
    "method": "POST",
    "path": "/project/{projectId}/database/tables/{table}/rows/update",
    "tag": "Database"
  },
  {
    "operationId": "createConsoleSignedUrl",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/sign",
    "tag": "Storage"
  },
  {
    "operationId": "createDbTable",
    "method": "POST",
    "path": "/project/{projectId}/database/create_table",
    "tag": "Database"
  },
  {
    "operationId": "createManifestDeployment",
    "method": "POST",
    "path": "/project/{projectId}/deployments/manifest",
    "tag": "Hosting"
  },
  {
    "operationId": "createObjectSignedLink",
    "method": "POST",
    "path": "/storage/v1/objects/{objectId}/signed-links",
    "tag": "Storage for apps"
  },
  {
    "operationId": "createOrder",
    "method": "POST",
    "path": "/create-order/",
    "tag": "Payments"
  },
  {
    "operationId": "createProject",
    "method": "POST",
    "path": "/create-project",
    "tag": "Projects"
  },
  {
    "operationId": "createProjectAlias",
    "method": "POST",
    "path": "/create_project",
    "tag": "Deprecated"
  },
  {
    "operationId": "createSignedLink",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/signed-links/create",
    "tag": "Storage"
  },
  {
    "operationId": "createSignedUrl",
    "method": "POST",
    "path": "/storage/v1/object/sign/{objectId}",
    "tag": "Storage for apps"
  },
  {
    "operationId": "createSignedUrls",
    "method": "POST",
    "path": "/storage/v1/object/sign",
    "tag": "Storage for apps"
  },
  {
    "operationId": "deleteAuthUser",
    "method": "POST",
    "path": "/project/{projectId}/auth/delete_user",
    "tag": "End users"
  },
  {
    "operationId": "deleteDbRows",
    "method": "POST",
    "path": "/db/v1/{table}/delete",
    "tag": "Database for apps"
  },
  {
    "operationId": "deleteObjects",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/delete",
    "tag": "Storage"
  },
  {
    "operationId": "deleteProject",
    "method": "POST",
    "path": "/project/{projectId}/delete",
    "tag": "Projects"
  },
  {
    "operationId": "deleteSite",
    "method": "POST",
    "path": "/project/{projectId}/hosting/delete",
    "tag": "Hosting"
  },
  {
    "operationId": "deleteStorageRule",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/rules/delete",
    "tag": "Storage"
  },
  {
    "operationId": "downloadObject",
    "method": "GET",
    "path": "/s3/object-storage/{segment}/{objectId}",
    "tag": "Storage"
  },
  {
    "operationId": "downloadPublicObject",
    "method": "GET",
    "path": "/storage/v1/object/public/{objectId}",
    "tag": "Storage for apps"
  },
  {
    "operationId": "downloadSignedObject",
    "method": "GET",
    "path": "/storage/v1/signed/{token}",
    "tag": "Storage for apps"
  },
  {
    "operationId": "downloadSignedUrl",
    "method": "GET",
    "path": "/storage/v1/object/sign/{objectId}",
    "tag": "Storage for apps"
  },
  {
    "operationId": "dropDbColumn",
    "method": "POST",
    "path": "/project/{projectId}/database/drop_column",
    "tag": "Database"
  },
  {
    "operationId": "dropDbTable",
    "method": "POST",
    "path": "/project/{projectId}/database/drop_table",
    "tag": "Database"
  },
  {
    "operationId": "endUserConfirmEmail",
    "method": "POST",
    "path": "/auth/v1/verify",
    "tag": "End-user auth"
  },
  {
    "operationId": "endUserGetCurrent",
    "method": "GET",
    "path": "/auth/v1/user",
    "tag": "End-user auth"
  },
  {
    "operationId": "endUserRefresh",
    "method": "POST",
    "path": "/auth/v1/refresh",
    "tag": "End-user auth"
  },
  {
    "operationId": "endUserRequestPasswordReset",
    "method": "POST",
    "path": "/auth/v1/recover",
    "tag": "End-user auth"
  },
  {
    "operationId": "endUserResetPassword",
    "method": "POST",
    "path": "/auth/v1/reset",
    "tag": "End-user auth"
  },
  {
    "operationId": "endUserSendVerification",
    "method": "POST",
    "path": "/auth/v1/verify/send",
    "tag": "End-user auth"
  },
  {
    "operationId": "endUserSignIn",
    "method": "POST",
    "path": "/auth/v1/signin",
    "tag": "End-user auth"
  },
  {
    "operationId": "endUserSignOut",
    "method": "POST",
    "path": "/auth/v1/signout",
    "tag": "End-user auth"
  },
  {
    "operationId": "endUserSignUp",
    "method": "POST",
    "path": "/auth/v1/signup",
    "tag": "End-user auth"
  },
  {
    "operationId": "exportProject",
    "method": "POST",
    "path": "/project/{projectId}/export",
    "tag": "Projects"
  },
  {
    "operationId": "finishDeployment",
    "method": "POST",
    "path": "/project/{projectId}/deployments/{deploymentId}/finish",
    "tag": "Hosting"
  },
  {
    "operationId": "forgotPassword",
    "method": "POST",
    "path": "/forgetPassword",
    "tag": "Accounts"
  },
  {
    "operationId": "forgotPasswordAlias",
    "method": "POST",
    "path": "/forgot_pass",
    "tag": "Deprecated"
  },
  {
    "operationId": "getAccountDetails",
    "method": "POST",
    "path": "/account-details",
    "tag": "Accounts"
  },
  {
    "operationId": "getAccountUsage",
    "method": "POST",
    "path": "/usage",
    "tag": "Usage"
  },
  {
    "operationId": "getAuthenticationDetails",
    "method": "POST",
    "path": "/project/{projectId}/authentication-details",
    "tag": "Projects"
  },
  {
    "operationId": "getBilling",
    "method": "GET",
    "path": "/billing",
    "tag": "Payments"
  },
  {
    "operationId": "getBucketDetails",
    "method": "POST",
    "path": "/project/{projectId}/bucket-details",
    "tag": "Projects"
  },
  {
    "operationId": "getBuildSettings",
    "method": "POST",
    "path": "/project/{projectId}/hosting/build-settings",
    "tag": "Hosting"
  },
  {
    "operationId": "getContainerStats",
    "method": "POST",
    "path": "/project/{projectId}/container-stats/",
    "tag": "Hosting"
  },
  {
    "operationId": "getDeploymentLogs",
    "method": "POST",
    "path": "/project/{projectId}/deployments/{deploymentId}/logs",
    "tag": "Hosting"
  },
  {
    "operationId": "getDeveloper",
    "method": "GET",
    "path": "/developers/{id}",
    "tag": "Accounts"
  },
  {
    "operationId": "getEmailVerified",
    "method": "POST",
    "path": "/email-verified",
    "tag": "Accounts"
  },
  {
    "operationId": "getHealth",
    "method": "GET",
    "path": "/health",
    "tag": "System"
  },
  {
    "operationId": "getProjectApiKeys",
    "method": "POST",
    "path": "/project/{projectId}/api-keys",
    "tag": "Projects"
  },
  {
    "operationId": "getProjectDetails",
    "method": "POST",
    "path": "/project/project-details/",
    "tag": "Projects"
  },
  {
    "operationId": "getProjectUsage",
    "method": "POST",
    "path": "/project/{projectId}/usage",
    "tag": "Usage"
  },
  {
    "operationId": "getSiteTraffic",
    "method": "POST",
    "path": "/project/{projectId}/hosting/traffic",
    "tag": "Hosting"
  },
  {
    "operationId": "getSmtpDomainDetails",
    "method": "POST",
    "path": "/project/{projectId}/smtp/smtp_domain_details",
    "tag": "Mail"
  },
  {
    "operationId": "insertDbRows",
    "method": "POST",
    "path": "/db/v1/{table}/insert",
    "tag": "Database for apps"
  },
  {
    "operationId": "listAccountActivity",
    "method": "POST",
    "path": "/activity",
    "tag": "Activity"
  },
  {
    "operationId": "listAccountErrors",
    "method": "POST",
    "path": "/errors",
    "tag": "Activity"
  },
  {
    "operationId": "listAuthUsers",
    "method": "POST",
    "path": "/project/{projectId}/auth/users_list",
    "tag": "End users"
  },
  {
    "operationId": "listDbTables",
    "method": "POST",
    "path": "/project/{projectId}/database/tables",
    "tag": "Database"
  },
  {
    "operationId": "listDeployments",
    "method": "POST",
    "path": "/project/{projectId}/deployments",
    "tag": "Hosting"
  },
  {
    "operationId": "listObjects",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/files",
    "tag": "Storage"
  },
  {
    "operationId": "listPlans",
    "method": "GET",
    "path": "/plans",
    "tag": "Payments"
  },
  {
    "operationId": "listProjectActivity",
    "method": "POST",
    "path": "/project/{projectId}/activity",
    "tag": "Activity"
  },
  {
    "operationId": "listProjectErrors",
    "method": "POST",
    "path": "/project/{projectId}/errors",
    "tag": "Activity"
  },
  {
    "operationId": "listProjects",
    "method": "POST",
    "path": "/projects",
    "tag": "Projects"
  },
  {
    "operationId": "listSignedLinks",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/signed-links",
    "tag": "Storage"
  },
  {
    "operationId": "listSiteDomains",
    "method": "POST",
    "path": "/project/{projectId}/hosting/domains",
    "tag": "Hosting"
  },
  {
    "operationId": "listSiteEnv",
    "method": "POST",
    "path": "/project/{projectId}/hosting/env",
    "tag": "Hosting"
  },
  {
    "operationId": "listSites",
    "method": "POST",
    "path": "/hosting/sites",
    "tag": "Hosting"
  },
  {
    "operationId": "listSmtpAccounts",
    "method": "POST",
    "path": "/project/{projectId}/smtp/accounts",
    "tag": "Mail"
  },
  {
    "operationId": "listStorageRules",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/rules",
    "tag": "Storage"
  },
  {
    "operationId": "loginAccount",
    "method": "POST",
    "path": "/verify_user",
    "tag": "Accounts"
  },
  {
    "operationId": "razorpayWebhook",
    "method": "POST",
    "path": "/webhooks/razorpay",
    "tag": "Payments"
  },
  {
    "operationId": "registerAccount",
    "method": "POST",
    "path": "/register",
    "tag": "Accounts"
  },
  {
    "operationId": "removeSiteDomain",
    "method": "POST",
    "path": "/project/{projectId}/hosting/remove_domain",
    "tag": "Hosting"
  },
  {
    "operationId": "removeSmtpAccount",
    "method": "POST",
    "path": "/project/{projectId}/smtp/remove_account",
    "tag": "Mail"
  },
  {
    "operationId": "removeSmtpDomain",
    "method": "POST",
    "path": "/project/{projectId}/smtp/remove_domain",
    "tag": "Mail"
  },
  {
    "operationId": "renameDbColumn",
    "method": "POST",
    "path": "/project/{projectId}/database/rename_column",
    "tag": "Database"
  },
  {
    "operationId": "resetAuthUserPassword",
    "method": "POST",
    "path": "/project/{projectId}/auth/reset_password",
    "tag": "End users"
  },
  {
    "operationId": "resetPassword",
    "method": "POST",
    "path": "/reset_password/{token}",
    "tag": "Accounts"
  },
  {
    "operationId": "revokeObjectSignedLink",
    "method": "DELETE",
    "path": "/storage/v1/signed-links/{linkId}",
    "tag": "Storage for apps"
  },
  {
    "operationId": "revokeSignedLink",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/signed-links/revoke",
    "tag": "Storage"
  },
  {
    "operationId": "rotateProjectKey",
    "method": "POST",
    "path": "/project/{projectId}/rotate-key",
    "tag": "Projects"
  },
  {
    "operationId": "runDbSql",
    "method": "POST",
    "path": "/project/{projectId}/database/sql",
    "tag": "Database"
  },
  {
    "operationId": "selectDbRows",
    "method": "POST",
    "path": "/db/v1/{table}/select",
    "tag": "Database for apps"
  },
  {
    "operationId": "sendEmailVerification",
    "method": "POST",
    "path": "/send_email_verification",
    "tag": "Accounts"
  },
  {
    "operationId": "setBuildSettings",
    "method": "POST",
    "path": "/project/{projectId}/hosting/build-settings/set",
    "tag": "Hosting"
  },
  {
    "operationId": "setDbTableAccess",
    "method": "POST",
    "path": "/project/{projectId}/database/set_access",
    "tag": "Database"
  },
  {
    "operationId": "setSiteEnv",
    "method": "POST",
    "path": "/project/{projectId}/hosting/env/set",
    "tag": "Hosting"
  },
  {
    "operationId": "setStorageRule",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/rules/set",
    "tag": "Storage"
  },
  {
    "operationId": "shareObject",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/share",
    "tag": "Storage"
  },
  {
    "operationId": "startPayment",
    "method": "POST",
    "path": "/pay",
    "tag": "Payments"
  },
  {
    "operationId": "streamDeploymentLog",
    "method": "GET",
    "path": "/project/{projectId}/deployments/{deploymentId}/log-stream",
    "tag": "Hosting"
  },
  {
    "operationId": "submitContactMessage",
    "method": "POST",
    "path": "/contact",
    "tag": "Contact"
  },
  {
    "operationId": "subscribeDbChanges",
    "method": "GET",
    "path": "/db/v1/{table}/changes",
    "tag": "Database for apps"
  },
  {
    "operationId": "toggleMfa",
    "method": "POST",
    "path": "/toggle-mfa",
    "tag": "Accounts"
  },
  {
    "operationId": "unpublishSite",
    "method": "POST",
    "path": "/project/{projectId}/hosting/unpublish",
    "tag": "Hosting"
  },
  {
    "operationId": "unsetSiteEnv",
    "method": "POST",
    "path": "/project/{projectId}/hosting/env/unset",
    "tag": "Hosting"
  },
  {
    "operationId": "unshareObject",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/unshare",
    "tag": "Storage"
  },
  {
    "operationId": "updateAuthSettings",
    "method": "POST",
    "path": "/project/{projectId}/auth/settings",
    "tag": "End users"
  },
  {
    "operationId": "updateDbRows",
    "method": "POST",
    "path": "/db/v1/{table}/update",
    "tag": "Database for apps"
  },
  {
    "operationId": "uploadDeploymentFiles",
    "method": "POST",
    "path": "/project/{projectId}/deployments/{deploymentId}/files",
    "tag": "Hosting"
  },
  {
    "operationId": "uploadObject",
    "method": "POST",
    "path": "/project/{projectId}/object-storage/upload",
    "tag": "Storage"
  },
  {
    "operationId": "uploadSiteZip",
    "method": "POST",
    "path": "/project/{projectId}/upload-and-extract-zip/",
    "tag": "Hosting"
  },
  {
    "operationId": "verifyMfaCode",
    "method": "POST",
    "path": "/verifyMFACode",
    "tag": "Accounts"
  },
  {
    "operationId": "verifyMfaCodeAlias",
    "method": "POST",
    "path": "/verify-mfa-code",
    "tag": "Deprecated"
  },
  {
    "operationId": "verifyPayment",
    "method": "POST",
    "path": "/verify-payment/",
    "tag": "Payments"
  },
  {
    "operationId": "verifySiteDomain",
    "method": "POST",
    "path": "/project/{projectId}/hosting/verify_domain",
    "tag": "Hosting"
  },
  {
    "operationId": "verifySmtpDomain",
    "method": "POST",
    "path": "/project/{projectId}/smtp/smtp_domain_verify",
    "tag": "Mail"
  },
  {
    "operationId": "verifyToken",
    "method": "POST",
    "path": "/verify-token",
    "tag": "Accounts"
  },
  {
    "operationId": "verifyTokenAlias",
    "method": "POST",
    "path": "/verifyToken",
    "tag": "Deprecated"
  }
] as const;

export type OperationId = (typeof operations)[number]['operationId'];
