// The caller module's face: who is calling, for every module's handlers.
export { appCaller, currentAccount, currentEndUser, keyProject, ownedProject, type AppCaller, type ProjectKeyRole } from './caller';
