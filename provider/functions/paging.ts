/** The page size argument of the list functions. */
import { z } from "zod";
import { MAX_PER_PAGE } from "../../api/pagination";
import { field } from "../internal/declare";

/**
 * `perPage`: how many items each request asks for. Every page is read whatever it is; a smaller
 * page only means more requests (the API's default is 30, its largest 100).
 */
export const pageSize = field(
  z
    .number({ error: `perPage must be an integer from 1 to ${MAX_PER_PAGE}` })
    .int(`perPage must be an integer from 1 to ${MAX_PER_PAGE}`)
    .min(1, `perPage must be an integer from 1 to ${MAX_PER_PAGE}`)
    .max(MAX_PER_PAGE, `perPage must be an integer from 1 to ${MAX_PER_PAGE}`)
    .default(MAX_PER_PAGE),
  {
    description: `Page size of the requests (1 to ${MAX_PER_PAGE}, default ${MAX_PER_PAGE}); every page is read whatever it is.`,
  },
);
