// The sign-in module's face: the rules developer accounts and a project's end users share (how
// guessing is slowed, which passwords are refused, remembered devices). No plugin: accounts and
// end-users build their services from it.
export { identityServiceDeps } from './identity-deps';
export { checkPassword, normalizeEmail } from './credentials';
export { DeviceTokens } from './device-tokens';
export { knownDevice, trustDevice, type DeviceStore } from './trusted-devices';
export { DEVICE_TTL_MS, DEVICES_KEPT, MFA_CHALLENGE_ATTEMPTS, MFA_FAILURE_POLICY, RESET_REQUEST_POLICY, SIGN_IN_POLICY, guardBuckets, isBurst } from './sign-in-guard';
