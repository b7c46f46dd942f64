/**
 * Observers of the API's answers, for tests that check every response the sandbox server gives
 * (the conformance check against the platform's published API description). With no observer
 * registered, the request pipeline does nothing more than test a set's size: the server never
 * copies or reads a body for it.
 */

/** One answered API request, as the request log saw it. */
export interface ObservedResponse {
  method: string;
  /** The matched route's template below the API root (`/repos/{owner}/{repo}/hooks`), or `(unmatched)`. */
  route: string;
  /** The request path below the API root, without its query. */
  path: string;
  status: number;
  /** The response's content type, as sent (`application/json; charset=utf-8`), or "" without one. */
  contentType: string;
  /** The response body as text ("" when empty). */
  body: string;
}

export type ResponseObserver = (response: ObservedResponse) => void;

const observers = new Set<ResponseObserver>();

/** Registers `observer` for every API response from now on; returns the function that removes it. */
export function observeResponses(observer: ResponseObserver): () => void {
  observers.add(observer);
  return () => {
    observers.delete(observer);
  };
}

/** Whether anything observes responses: the pipeline reads no body when nothing does. */
export function observed(): boolean {
  return observers.size > 0;
}

/**
 * Reads a copy of `response`'s body and hands the answer to every observer. The copy is read in
 * full before the caller returns, so the observers see the request before its client does.
 */
export async function notifyObservers(
  response: Response,
  request: Omit<ObservedResponse, "status" | "contentType" | "body">,
): Promise<void> {
  const body = response.body === null ? "" : await response.clone().text();
  const observation: ObservedResponse = {
    ...request,
    status: response.status,
    contentType: response.headers.get("content-type") ?? "",
    body,
  };
  for (const observer of observers) observer(observation);
}
