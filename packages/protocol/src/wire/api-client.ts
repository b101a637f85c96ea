import type { RouteBodyIn, RouteParams, RouteQueryIn, RouteResult, RouteSpec } from "./route-spec.js";
import { routePath, successOf } from "./route-spec.js";

/**
 * How a request reaches the daemon: the page's fetch and the CLI's each keep their own auth
 * header and daemon-proof guard, and throw their own error on a non-2xx answer. Resolves to the
 * parsed JSON body, or null when there is none.
 */
export type ApiTransport = (request: { method: Uppercase<RouteSpec["method"]>; path: string; body?: unknown }) => Promise<unknown>;

type ParamsPart<R extends RouteSpec> = keyof RouteParams<R> extends never ? { readonly params?: undefined } : { readonly params: RouteParams<R> };
type BodyPart<R extends RouteSpec> = R extends { readonly body: unknown } ? { readonly body: RouteBodyIn<R> } : { readonly body?: undefined };
type QueryPart<R extends RouteSpec> = R extends { readonly query: unknown } ? { readonly query?: RouteQueryIn<R> } : { readonly query?: undefined };

/** What a call to the route takes: its path parameters, query and body, each typed from the table. */
export type CallInput<R extends RouteSpec> = ParamsPart<R> & BodyPart<R> & QueryPart<R>;
type CallArgs<R extends RouteSpec> = keyof RouteParams<R> extends never
  ? R extends { readonly body: unknown }
    ? [input: CallInput<R>]
    : [input?: CallInput<R>]
  : [input: CallInput<R>];

export interface ApiClient {
  /** One REST call by route (e.g. `call(ROUTES.getConversation, { params: { id } })`), its answer parsed with the route's success schema. */
  call<R extends RouteSpec>(route: R, ...args: CallArgs<R>): Promise<RouteResult<R>>;
}

/**
 * The one typed client, generated from ROUTES (docs/decisions.md, "Wire contract"): the path is
 * built (and encoded) here, and the answer parsed with the spec's schema, so no caller casts.
 */
export function createApiClient(transport: ApiTransport): ApiClient {
  return {
    async call<R extends RouteSpec>(route: R, ...[input]: CallArgs<R>): Promise<RouteResult<R>> {
      const { params, query, body } = (input ?? {}) as { params?: Record<string, string>; query?: Record<string, unknown>; body?: unknown };
      const { schema } = successOf(route);
      if (schema !== null && "sse" in schema) throw new Error(`${route.path} is a stream; open it with the stream reader`);
      const json = await transport({
        method: route.method.toUpperCase() as Uppercase<RouteSpec["method"]>,
        path: routePath(route, params, query),
        // A POST without a body schema still sends `{}`, as both clients always did.
        body: body ?? (route.method === "post" ? {} : undefined),
      });
      return (schema === null ? null : schema.parse(json)) as RouteResult<R>;
    },
  };
}
