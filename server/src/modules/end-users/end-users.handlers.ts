// Thin handlers keyed by operationId. Console operations (authUsers tag) act on a project the
// developer owns (another account's project is a 404); app-side operations (endUserAuth tag) act
// on the project of the x-api-key (req.project, set by the authKey verifier). Keyless ones (reset,
// verify) name their project in req.authProjectId for CORS (http/app-cors.ts).
import type { HandlerMap } from '../../platform/http/types';
import { Errors } from '../../platform/errors';
import { currentEndUser, keyProject, ownedProject } from '../caller';
import { endUserView, type EndUsersService } from './end-users.service';

export function createEndUsersHandlers(service: EndUsersService): HandlerMap {
  return {
    // ---------------------------------------------------------------- console
    listAuthUsers: async (req) => service.list(await ownedProject(req), req.body?.page ?? 1),

    addAuthUser: async (req) => {
      await service.add(await ownedProject(req), req.body);
      return { message: 'True' };
    },

    deleteAuthUser: async (req) => {
      await service.remove(await ownedProject(req), req.body.user_id, req.body.email);
      return { message: 'True' };
    },

    // The user gets a single-use link valid for 1 hour:
    //   `${site_url || PUBLIC_URL + '/auth/end-user'}/reset-password?token=<token>`
    // (site_url from updateAuthSettings); the page POSTs token + password to /api/auth/v1/reset.
    resetAuthUserPassword: async (req) => {
      await service.sendResetFromConsole(await ownedProject(req), req.body.user_id, req.body.email);
      return { message: 'True' };
    },

    updateAuthSettings: async (req) => service.settings(await ownedProject(req), req.body ?? {}),

    // ---------------------------------------------------------------- app side
    endUserSignUp: async (req) => service.signUp(keyProject(req), req.body, req.ip),

    endUserSignIn: async (req) => service.signIn(keyProject(req), req.body, req.ip),

    endUserRefresh: async (req) => service.refresh(keyProject(req), req.body.refresh_token),

    endUserSignOut: async (req) => {
      await service.signOut(keyProject(req), req.body.refresh_token);
      return { message: 'signed out' };
    },

    endUserGetCurrent: async (req) => endUserView(currentEndUser(req)),

    endUserRequestPasswordReset: async (req) => {
      await service.requestReset(keyProject(req), req.body.email, req.ip, req.body.device_token);
      return { message: true };
    },

    endUserResetPassword: async (req) => {
      req.authProjectId = await service.resetPassword(req.body.token, req.body.password, req.ip);
      return { message: 'Password has been reset' };
    },

    endUserSendVerification: async (req) => {
      const result = await service.sendVerification(keyProject(req), currentEndUser(req));
      return { message: result === 'already' ? 'Email already verified' : 'Verification email sent' };
    },

    endUserConfirmEmail: async (req) => {
      const projectId = await service.confirmEmail(req.body.token);
      if (!projectId) throw Errors.badRequest('This verification link is invalid or has expired');
      req.authProjectId = projectId;
      return { message: 'verified' };
    },
  };
}
