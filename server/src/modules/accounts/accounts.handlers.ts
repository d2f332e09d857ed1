// Thin handlers keyed by operationId: read the request, call the service, shape the answer.
import type { HandlerMap } from '../../platform/http/types';
import { AppError, Errors } from '../../platform/errors';
import { currentAccount } from '../caller';
import { type AccountsService, publicAccount } from './accounts.service';

export function createAccountsHandlers(service: AccountsService, publicUrl: string): HandlerMap {
  const handlers: HandlerMap = {
    registerAccount: async (req) => {
      const { token, deviceToken } = await service.register(req.body, req.ip);
      return { status: 200, message: 'Account created', token, device_token: deviceToken };
    },

    loginAccount: async (req) => {
      const result = await service.login(req.body, req.ip);
      return result.kind === 'mfa'
        ? { message: 'mfa', mfa_token: result.mfaToken }
        : { message: 'Login successful', token: result.token, device_token: result.deviceToken };
    },

    verifyToken: async (req) => {
      await service.authenticate(req.body.token);
      return { message: 'True' };
    },

    forgotPassword: async (req) => {
      await service.forgotPassword(req.body.email, req.ip, req.body.device_token);
      return { message: true };
    },

    resetPassword: async (req) => {
      await service.resetPassword(req.params.token, req.body.password);
      return { message: 'Password has been reset' };
    },

    verifyMfaCode: async (req) => {
      const { token, deviceToken } = await service.verifyMfaLogin(
        { email: req.body.email, code: req.body.mfa_code, mfaToken: req.body.mfa_token, deviceToken: req.body.device_token },
        req.ip,
      );
      return { message: 'verified', token, device_token: deviceToken };
    },

    toggleMfa: async (req) => service.toggleMfa(currentAccount(req), req.body ?? {}),

    sendEmailVerification: async (req) => {
      const result = await service.sendVerification(currentAccount(req));
      return { message: result === 'already' ? 'Email already verified' : 'Verification email sent' };
    },

    confirmEmailLink: async (req, reply) => {
      let outcome: 'ok' | 'invalid' | 'taken';
      try {
        outcome = (await service.confirmEmail(req.params.token)) ? 'ok' : 'invalid';
      } catch (err) {
        // A new address someone else took meanwhile: the page says so (the link stays usable).
        if (!(err instanceof AppError) || err.statusCode !== 409) throw err;
        outcome = 'taken';
      }
      return reply.redirect(outcome === 'ok' ? `${publicUrl}/email-verified` : `${publicUrl}/verify-email?error=${outcome}`, 302);
    },

    confirmEmail: async (req) => {
      if (!(await service.confirmEmail(req.body.token))) throw Errors.badRequest('This verification link is invalid or has expired');
      return { message: 'verified' };
    },

    getEmailVerified: async (req) => {
      const account = currentAccount(req);
      return { email: account.email, email_verified: account.emailVerifiedAt !== null };
    },

    changePassword: async (req) => {
      const token = await service.changePassword(currentAccount(req), req.body.current_password, req.body.new_password);
      return { message: 'Password changed', token };
    },

    getAccountDetails: async (req) => {
      let account = currentAccount(req);
      const body = req.body ?? {};
      if (body.name !== undefined) account = await service.updateName(account, body.name);
      if (body.notifications) account = await service.updateNotifications(account, body.notifications);
      if (body.email !== undefined) await service.requestEmailChange(account, body.email);
      return publicAccount(account, await service.pendingEmail(account));
    },

    getDeveloper: async (req) => {
      // Own account only; anyone else's id is simply not found (no existence oracle).
      const account = currentAccount(req);
      if (req.params.id !== account.id) throw Errors.notFound('Developer');
      return publicAccount(account);
    },
  };
  // The spec's second naming of the same calls.
  handlers.verifyTokenAlias = handlers.verifyToken as HandlerMap['verifyTokenAlias'];
  handlers.forgotPasswordAlias = handlers.forgotPassword as HandlerMap['forgotPasswordAlias'];
  handlers.verifyMfaCodeAlias = handlers.verifyMfaCode as HandlerMap['verifyMfaCodeAlias'];
  return handlers;
}
