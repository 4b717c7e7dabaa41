/**
 * The largest request header section stackd accepts (browsers send a few KB; proxies cap at
 * 8–64 KB). A leaf of its own: the uWS loader passes it to the builds that read a limit when
 * they load, and request framing answers 431 past it (docs/api-conventions.md).
 */
export const MAX_HEADER_BYTES = 64 * 1024;
