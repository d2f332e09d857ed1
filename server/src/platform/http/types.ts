// Handler types derived from the generated contract types: a handler for operation K receives
// K's body, path params and query, and returns K's 200 body (or sends something else via reply).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { operations } from '../../generated/openapi';
import type { OperationId } from '../../generated/operations';

type Op<K extends OperationId> = operations[K];

type JsonBodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : unknown;
type PathOf<O> = O extends { parameters: { path: infer P } } ? (P extends undefined ? unknown : P) : unknown;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? ([Q] extends [never] ? unknown : Q) : unknown;
type Ok<O> = O extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : unknown;

export type Body<K extends OperationId> = JsonBodyOf<Op<K>>;
export type Reply<K extends OperationId> = Ok<Op<K>>;

export type OpRequest<K extends OperationId> = FastifyRequest<{
  Body: Body<K>;
  Params: PathOf<Op<K>>;
  Querystring: QueryOf<Op<K>>;
}>;

export type Handler<K extends OperationId> = (req: OpRequest<K>, reply: FastifyReply) => Promise<Reply<K> | FastifyReply | void>;

export type HandlerMap = { [K in OperationId]?: Handler<K> };

export type { OperationId };
