// Thin handlers keyed by operationId: the caller's own project first (no token: 401; another
// account's project: 404), then the mail rules of the service.
import type { HandlerMap } from '../../platform/http/types';
import { ownedProject as owned } from '../caller';
import type { MailService } from './mail.service';

export function createMailHandlers(smtp: MailService): HandlerMap {
  return {
    addSmtpDomain: async (req) => {
      await smtp.addDomain(await owned(req), req.body.domain);
      return { message: 'added' };
    },

    getSmtpDomainDetails: async (req) => smtp.details(await owned(req)),

    verifySmtpDomain: async (req) => {
      const { message } = await smtp.verify(await owned(req), req.body.domain);
      return { message };
    },

    removeSmtpDomain: async (req) => {
      await smtp.removeDomain(await owned(req), req.body.domain);
      return { message: 'removed' };
    },

    listSmtpAccounts: async (req) => (await smtp.accounts(await owned(req), req.body.domain)).map((a) => smtp.accountView(a)),

    addSmtpAccount: async (req) => {
      await smtp.addAccount(await owned(req), req.body);
      return { message: 'created' };
    },

    removeSmtpAccount: async (req) => {
      await smtp.removeAccount(await owned(req), req.body.email);
      return { message: 'removed' };
    },

    changeSmtpAccountPassword: async (req) => {
      await smtp.changePassword(await owned(req), req.body.email, req.body.password);
      return { message: 'changed' };
    },
  };
}
