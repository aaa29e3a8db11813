export const id = 247;
export const ids = [247];
export const modules = {

/***/ 2247:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  atprotoAdapter: () => (/* binding */ atprotoAdapter)
});

// EXTERNAL MODULE: ../core/src/networks/adapter.ts
var adapter = __webpack_require__(2508);
// EXTERNAL MODULE: ../core/src/contract/networks.ts
var networks = __webpack_require__(407);
// EXTERNAL MODULE: ../networks/src/bluesky/adapter.ts
var bluesky_adapter = __webpack_require__(9222);
// EXTERNAL MODULE: ../../node_modules/.pnpm/@atproto+api@0.21.0/node_modules/@atproto/api/dist/index.js + 437 modules
var dist = __webpack_require__(1649);
;// CONCATENATED MODULE: ../networks/src/bluesky/client.ts
// The XRPC client for one PDS, built on @atproto/api's Agent with a fetch handler of our own: the
// handler adds the session's bearer token, bounds every request with a timeout, and goes through an
// injectable fetch (the tests count logins and lose answers with it). The Agent brings the lexicon
// types, request encoding and XRPC error decoding; the session itself is ours (session.ts), because
// the service must store a refreshed session before it is used, which @atproto/api's AtpAgent does not
// wait for.

/** An Agent that talks to `origin`, authenticated with `token` when given. */
function clientFor(origin, token, options, signal) {
    return new dist/* Agent */.g6n(async (path, init) => {
        const headers = new Headers(init.headers);
        if (token !== undefined)
            headers.set("authorization", `Bearer ${token}`);
        const signals = [AbortSignal.timeout(options.timeoutMs)];
        if (init.signal)
            signals.push(init.signal);
        if (signal)
            signals.push(signal);
        return options.fetch(new URL(path, origin), { ...init, headers, signal: AbortSignal.any(signals) });
    });
}

;// CONCATENATED MODULE: ../networks/src/bluesky/credentials.ts
const FIELDS = [
    "service",
    "pds",
    "identifier",
    "app_password",
    "did",
    "handle",
    "access_jwt",
    "refresh_jwt",
];
function toCredentials(value) {
    return { ...value };
}
/** Reads stored credentials back; a field missing means the account must be connected again. */
function fromCredentials(credentials) {
    const out = {};
    for (const field of FIELDS) {
        const value = credentials[field];
        if (typeof value !== "string" || value === "")
            return undefined;
        out[field] = value;
    }
    return out;
}
/** The claims of a session token that decide what we do with it (not verified: the PDS does that). */
function jwtClaims(jwt) {
    const payload = jwt.split(".")[1];
    if (payload === undefined)
        return {};
    try {
        const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
        return {
            ...(typeof claims.exp === "number" ? { exp: claims.exp } : {}),
            ...(typeof claims.scope === "string" ? { scope: claims.scope } : {}),
        };
    }
    catch {
        return {};
    }
}

// EXTERNAL MODULE: ../networks/src/bluesky/embed.ts + 26 modules
var bluesky_embed = __webpack_require__(7197);
;// CONCATENATED MODULE: ../networks/src/bluesky/errors.ts
// What a failure from a PDS means for the service (see NetworkError's kinds in @socialpub/core).
// XRPC errors carry the HTTP status, an error name and a message; rate limits carry ratelimit-*
// headers (ratelimit-reset is a Unix time in seconds).


const NETWORK = "bluesky";
/** Error names the PDS uses for an access token it no longer takes: refresh the session and try again. */
const EXPIRED_TOKEN_ERRORS = new Set(["ExpiredToken", "InvalidToken"]);
/** Error names that mean the account itself can no longer post (the grant is gone). */
const ACCOUNT_GONE_ERRORS = new Set([
    "AccountTakedown",
    "AccountDeactivated",
    "AccountNotFound",
    "RepoTakendown",
    "RepoDeactivated",
    "RepoSuspended",
]);
/** Connection errors raised before any byte of the request reached the PDS: safe to send again. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);
function xrpcStatus(error) {
    return error instanceof dist/* XRPCError */.k$L && error.status >= 100 ? error.status : undefined;
}
function xrpcErrorName(error) {
    return error instanceof dist/* XRPCError */.k$L ? error.error : undefined;
}
/** The network's hint of when to try again, from ratelimit-reset or retry-after. */
function retryAfterMsOf(headers, now = Date.now()) {
    if (!headers)
        return undefined;
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const reset = Number(lower["ratelimit-reset"]);
    if (Number.isFinite(reset) && reset > 0)
        return Math.max(0, reset * 1000 - now);
    const retryAfter = Number(lower["retry-after"]);
    if (Number.isFinite(retryAfter) && retryAfter >= 0)
        return retryAfter * 1000;
    return undefined;
}
function causeChain(error) {
    const chain = [];
    let current = error;
    while (current !== undefined && current !== null && chain.length < 8) {
        chain.push(current);
        current = current.cause;
    }
    return chain;
}
/** True when the failure happened before the request could have reached the PDS. */
function neverSent(error) {
    return causeChain(error).some((link) => NOT_SENT_CODES.has(link.code ?? ""));
}
function isTimeout(error) {
    return causeChain(error).some((link) => {
        const name = link.name;
        return name === "TimeoutError" || name === "AbortError";
    });
}
function reasonOf(error) {
    const message = error.message && error.message !== error.error ? error.message : "";
    return [error.error, message].filter(Boolean).join(": ") || `HTTP ${error.status}`;
}
/**
 * Classifies a failure of one request to the PDS. `what` names the action ("publishing",
 * "logging in") for the message; `sentWrite` says the request was a write whose effect cannot be
 * undone, so losing its answer leaves the outcome unknown instead of retryable.
 */
function classify(error, what, sentWrite = false) {
    if (error instanceof adapter/* NetworkError */.D)
        return error;
    const status = xrpcStatus(error);
    if (error instanceof dist/* XRPCError */.k$L && status !== undefined) {
        const reason = reasonOf(error);
        const details = { status, cause: error };
        if (status === 429) {
            return new adapter/* NetworkError */.D(NETWORK, "retry", `Bluesky is rate limiting ${what}: ${reason}`, {
                ...details,
                retryAfterMs: retryAfterMsOf(error.headers),
            });
        }
        if (status >= 500) {
            return new adapter/* NetworkError */.D(NETWORK, "retry", `Bluesky failed while ${what} (HTTP ${status}): ${reason}`, {
                ...details,
                retryAfterMs: retryAfterMsOf(error.headers),
            });
        }
        if (status === 401 || status === 403 || ACCOUNT_GONE_ERRORS.has(error.error)) {
            return new adapter/* NetworkError */.D(NETWORK, "reauth", `Bluesky no longer accepts this account's app password (${reason}): connect the account again with a new app password`, details);
        }
        return new adapter/* NetworkError */.D(NETWORK, "refused", `Bluesky refused ${what}: ${reason}`, details);
    }
    if (neverSent(error)) {
        return new adapter/* NetworkError */.D(NETWORK, "retry", `Bluesky could not be reached while ${what}`, { cause: error });
    }
    if (sentWrite) {
        return new adapter/* NetworkError */.D(NETWORK, "unknown", `Bluesky did not answer while ${what}${isTimeout(error) ? " (timed out)" : ""}: the post may have been made`, { cause: error });
    }
    return new adapter/* NetworkError */.D(NETWORK, "retry", `Bluesky did not answer while ${what}${isTimeout(error) ? " (timed out)" : ""}`, { cause: error });
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ../../node_modules/.pnpm/@atproto+common-web@0.5.17/node_modules/@atproto/common-web/dist/index.js + 32 modules
var common_web_dist = __webpack_require__(4245);
;// CONCATENATED MODULE: ../networks/src/bluesky/record-key.ts
// The record key of a post, chosen by us: Bluesky lets the client pick it, so a retry (after a timeout,
// after a crash) re-sends the same key and the PDS cannot make a second post.
//
// The service's key is already a TID built from the post's time (core's publishKey): it is used as it
// is. Any other key is turned into one here, the same key always into the same TID.
//
// app.bsky.feed.post records are keyed by a TID (13 characters: microseconds since 1970 and a 10-bit
// clock id, base32-sortable). Clients sort and page posts by it, so it should carry the post's time:
// when the service's key holds one of our ids (a ULID, whose first 10 characters are its creation time
// in milliseconds), the TID takes that time; the microseconds within that millisecond and the clock id
// come from a hash of the whole key, so two keys of the same post (two accounts, two attempts with a
// changed key) still differ. A key without an id falls back to a time taken from the hash.


const TID_PATTERN = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
const ULID = /[0-9A-HJKMNP-TV-Z]{26}/;
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** 2024-01-01T00:00:00Z in microseconds: the fallback time range starts here and spans about 12 days. */
const FALLBACK_EPOCH_US = 1_704_067_200_000_000;
function ulidMilliseconds(ulid) {
    let ms = 0;
    for (const char of ulid.slice(0, 10))
        ms = ms * 32 + CROCKFORD.indexOf(char);
    return ms;
}
/** The TID record key for `key`: the same key always gives the same record key. */
function recordKeyFor(key) {
    if (TID_PATTERN.test(key))
        return key;
    if (key === "")
        throw new Error("a publish key is required to choose the record key");
    const hash = (0,external_node_crypto_.createHash)("sha256").update(key).digest();
    const clockId = hash.readUInt16BE(0) & 0x3ff;
    const ulid = ULID.exec(key)?.[0];
    const micros = ulid !== undefined
        ? ulidMilliseconds(ulid) * 1000 + (hash.readUInt16BE(2) % 1000)
        : FALLBACK_EPOCH_US + (hash.readUInt32BE(4) % 2 ** 30) * 1000 + (hash.readUInt16BE(2) % 1000);
    return common_web_dist/* TID */.er.fromTime(micros, clockId).toString();
}

;// CONCATENATED MODULE: ../networks/src/bluesky/rich-text.ts
// Links and mentions in a post's text become facets: ranges in UTF-8 bytes (not UTF-16 code units, not
// graphemes) with what they point to. @atproto/api's RichText finds them and counts the bytes; a
// mention is kept only when its handle resolves to a DID on the account's PDS (an unresolved one stays
// plain text rather than a facet the PDS would refuse). Hashtags are left to the reader's app.

async function facetsOf(text, agent, signal) {
    const rich = new dist/* RichText */.sDQ({ text });
    rich.detectFacetsWithoutResolution();
    const detected = rich.facets ?? [];
    // Handles are resolved side by side; each appears once however often it is mentioned.
    const handles = new Set();
    for (const facet of detected) {
        for (const feature of facet.features)
            if (dist/* AppBskyRichtextFacet.isMention */.Lrw.isMention(feature))
                handles.add(feature.did);
    }
    const dids = new Map(await Promise.all([...handles].map(async (handle) => [handle, await resolveHandle(agent, handle, signal)])));
    const facets = [];
    const links = [];
    for (const facet of detected) {
        const features = [];
        for (const feature of facet.features) {
            if (dist/* AppBskyRichtextFacet.isLink */.Lrw.isLink(feature)) {
                features.push(feature);
                links.push(feature.uri);
            }
            else if (dist/* AppBskyRichtextFacet.isMention */.Lrw.isMention(feature)) {
                // Before resolution the mention's `did` holds the handle as written.
                const did = dids.get(feature.did);
                if (did)
                    features.push({ ...feature, did });
            }
        }
        if (features.length > 0)
            facets.push({ ...facet, features });
    }
    return { facets, links };
}
async function resolveHandle(agent, handle, signal) {
    try {
        const { data } = await agent.com.atproto.identity.resolveHandle({ handle }, { signal });
        return data.did;
    }
    catch (error) {
        if (signal.aborted)
            throw error;
        return undefined;
    }
}

;// CONCATENATED MODULE: ../networks/src/bluesky/session.ts
// The account's session on its PDS. An app password is exchanged once for an access token (about two
// hours) and a refresh token (about two months); after that the session is refreshed, never opened
// again per post, because createSession is limited to 30 per 5 minutes and 300 a day per account.
// Only when the refresh token itself is refused is the app password used again, once; if that is
// refused too, the user revoked it and must connect again (reauth).
//
// Every renewed session is saved through AccountSession.saveCredentials before it is used: refresh
// tokens rotate, so a crash between the refresh and the save would otherwise leave the store holding a
// token the PDS has already retired.





/** Refresh this long before the access token's own expiry, so a request never races it. */
const REFRESH_MARGIN_S = 120;
/** The PDS's origin from a URL-like string, or undefined when it is not an http(s) URL. */
function originOf(url) {
    try {
        const parsed = new URL(url);
        if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
            return undefined;
        if (parsed.username || parsed.password)
            return undefined;
        return parsed.origin;
    }
    catch {
        return undefined;
    }
}
function sessionFrom(answer, login) {
    const fromDoc = answer.didDoc && typeof answer.didDoc === "object"
        ? (0,common_web_dist/* getPdsEndpoint */.jV)(answer.didDoc)
        : undefined;
    return {
        ...login,
        pds: (fromDoc && originOf(fromDoc)) || login.service,
        did: answer.did,
        handle: answer.handle,
        access_jwt: answer.accessJwt,
        refresh_jwt: answer.refreshJwt,
    };
}
/** Logs in with the app password (createSession). Errors are the PDS's, unclassified. */
async function openSession(login, options, signal) {
    const agent = clientFor(login.service, undefined, options, signal);
    const { data } = await agent.com.atproto.server.createSession({
        identifier: login.identifier,
        password: login.app_password,
    });
    return sessionFrom(data, login);
}
/** Whether a failure says the access token is no longer taken (refresh and try once more). */
function isExpiredSession(error) {
    const status = xrpcStatus(error);
    return status === 401 || (status === 400 && EXPIRED_TOKEN_ERRORS.has(xrpcErrorName(error) ?? ""));
}
/**
 * Keeps the sessions of the accounts an adapter serves: one renewal at a time per account, and a
 * session renewed here is handed to a caller still holding the one it replaced.
 */
class SessionKeeper {
    #options;
    /** Renewals under way, by the refresh token they replace. */
    #renewing = new Map();
    /** Recent renewals, by the refresh token they replaced (bounded: oldest dropped first). */
    #renewed = new Map();
    constructor(options) {
        this.#options = options;
    }
    /** The account's current session, renewed first when its access token is about to expire. */
    async current(account, signal) {
        const stored = fromCredentials(account.credentials);
        if (!stored) {
            throw new adapter/* NetworkError */.D("bluesky", "reauth", "The stored Bluesky session is incomplete: connect the account again with an app password");
        }
        const session = this.#renewed.get(stored.refresh_jwt) ?? stored;
        const exp = jwtClaims(session.access_jwt).exp;
        if (exp === undefined || exp - REFRESH_MARGIN_S <= this.#options.now() / 1000) {
            return this.renew(account, session, signal);
        }
        return session;
    }
    /** Runs `work` with the session; when the PDS says the access token is gone, renews once and retries. */
    async run(account, signal, work) {
        const session = await this.current(account, signal);
        try {
            return await work(session);
        }
        catch (error) {
            if (!isExpiredSession(error))
                throw error;
        }
        const renewed = await this.renew(account, session, signal);
        try {
            return await work(renewed);
        }
        catch (error) {
            if (!isExpiredSession(error))
                throw error;
            throw new adapter/* NetworkError */.D("bluesky", "reauth", "Bluesky refused a session it had just renewed: connect the account again with a new app password", { status: xrpcStatus(error), cause: error });
        }
    }
    /** Refreshes `session` (or waits for the refresh already under way) and saves the result. */
    renew(account, session, signal) {
        const done = this.#renewed.get(session.refresh_jwt);
        if (done)
            return Promise.resolve(done);
        let pending = this.#renewing.get(session.refresh_jwt);
        if (!pending) {
            pending = this.#refreshOrLogIn(account, session, signal).finally(() => this.#renewing.delete(session.refresh_jwt));
            this.#renewing.set(session.refresh_jwt, pending);
        }
        return pending;
    }
    async #refreshOrLogIn(account, session, signal) {
        let next;
        try {
            const agent = clientFor(session.service, session.refresh_jwt, this.#options, signal);
            const { data } = await agent.com.atproto.server.refreshSession();
            next = sessionFrom(data, session);
        }
        catch (error) {
            if (!isExpiredSession(error) && xrpcStatus(error) !== 400)
                throw classify(error, "refreshing the session");
            // The refresh token ran out or was revoked: the app password opens a new session, once.
            try {
                next = await openSession(session, this.#options, signal);
            }
            catch (loginError) {
                const status = xrpcStatus(loginError);
                if (status === 401 || status === 400 || status === 403) {
                    throw new adapter/* NetworkError */.D("bluesky", "reauth", `Bluesky no longer accepts this account's app password (${xrpcErrorName(loginError) ?? `HTTP ${status}`}): connect the account again with a new app password`, { status, cause: loginError });
                }
                throw classify(loginError, "logging in again");
            }
        }
        await account.saveCredentials(toCredentials(next));
        this.#renewed.set(session.refresh_jwt, next);
        if (this.#renewed.size > 1000)
            this.#renewed.delete(this.#renewed.keys().next().value);
        return next;
    }
}

// EXTERNAL MODULE: ../core/src/text/adapt.ts + 1 modules
var adapt = __webpack_require__(8138);
;// CONCATENATED MODULE: ../networks/src/bluesky/text.ts
// Bluesky limits a post's text twice: 300 graphemes, which the service adapts every caption to, and
// 3000 UTF-8 bytes, which only text dense in emoji (a family emoji is one grapheme of 18 bytes) can pass
// while within 300 graphemes. Such a text is shortened here the same way, rather than refused.

const MAX_TEXT_BYTES = 3000;
const ELLIPSIS_BYTES = Buffer.byteLength("…");
function fitTextBytes(text) {
    if (Buffer.byteLength(text) <= MAX_TEXT_BYTES)
        return text;
    // How many whole graphemes fit beside the closing ellipsis; truncate then cuts at most there.
    let fits = 0;
    let bytes = 0;
    for (const { segment } of new Intl.Segmenter().segment(text)) {
        bytes += Buffer.byteLength(segment);
        if (bytes > MAX_TEXT_BYTES - ELLIPSIS_BYTES)
            break;
        fits++;
    }
    return (0,adapt/* truncate */.x)(text, fits + 1, "graphemes");
}

;// CONCATENATED MODULE: ../networks/src/bluesky/atproto-adapter.ts
// The Bluesky adapter's work, through @atproto/api: connects an account with an app password, publishes
// app.bsky.feed.post records to the account's PDS, finds a post made by an earlier attempt, and reads
// its counts. Loaded when a Bluesky account is first used (adapter.ts).










const POST_COLLECTION = "app.bsky.feed.post";
function postUri(did, rkey) {
    return `at://${did}/${POST_COLLECTION}/${rkey}`;
}
function requiredString(fields, name, what) {
    const value = fields[name];
    if (typeof value !== "string" || value.trim() === "") {
        throw new adapter/* NetworkError */.D("bluesky", "refused", `Bluesky needs ${name}: ${what}`);
    }
    return value.trim();
}
/** An expired session goes up as it is (the session keeper renews it and tries again); the rest is classified. */
function passExpired(error, what) {
    return isExpiredSession(error) ? error : classify(error, what);
}
function atprotoAdapter(options) {
    const sessionOptions = {
        fetch: options.fetch ?? globalThis.fetch,
        timeoutMs: options.timeoutMs ?? 15_000,
        now: options.now ?? Date.now,
    };
    const defaultService = options.defaultService ?? bluesky_adapter/* DEFAULT_SERVICE */.aR;
    const sessions = new SessionKeeper(sessionOptions);
    const client = (session, signal) => clientFor(session.pds, session.access_jwt, sessionOptions, signal);
    async function readPost(session, rkey, signal) {
        try {
            const { data } = await client(session, signal).com.atproto.repo.getRecord({ repo: session.did, collection: POST_COLLECTION, rkey }, { signal });
            return data;
        }
        catch (error) {
            if (xrpcStatus(error) === 400 && xrpcErrorName(error) === "RecordNotFound")
                return null;
            throw error;
        }
    }
    return {
        id: "bluesky",
        rule: networks/* NETWORK_RULES */.LL.bluesky,
        pacing: bluesky_adapter/* BLUESKY_PACING */.J3,
        maxMediaBytes: bluesky_embed/* MAX_IMAGE_BYTES */.J5,
        async connect(fields, context) {
            const { signal } = context;
            // "@alice.bsky.social" as Bluesky shows it is the handle alice.bsky.social.
            const identifier = requiredString(fields, "handle", "the account's handle, like alice.bsky.social").replace(/^@/, "");
            const appPassword = requiredString(fields, "app_password", "an app password made in Bluesky's Settings → Privacy and security → App passwords");
            const serviceField = fields.service === undefined || fields.service === null ? defaultService : fields.service;
            if (typeof serviceField !== "string" || !originOf(serviceField.trim())) {
                throw new adapter/* NetworkError */.D("bluesky", "refused", "Bluesky's service must be the http(s) address of a PDS, like https://bsky.social");
            }
            // A self-hosted PDS is an address the user gave: it must pass the service's public-address rule.
            const service = (await context.checkUserUrl(serviceField.trim(), "service")).origin;
            let session;
            try {
                session = await openSession({ service, identifier, app_password: appPassword }, sessionOptions, signal);
            }
            catch (error) {
                const status = xrpcStatus(error);
                if (status === 401 || status === 400) {
                    throw new adapter/* NetworkError */.D("bluesky", "refused", `Bluesky refused the login for ${identifier}: ${error.message || xrpcErrorName(error)}`, { status, cause: error });
                }
                throw classify(error, "logging in");
            }
            // The account's own PDS (from its DID document) is where posts go: the same rule applies to it.
            if (session.pds !== service)
                await context.checkUserUrl(session.pds, "service");
            // The account password opens a session that can change the account itself; we keep only what
            // posting needs, so we ask for an app password.
            if (jwtClaims(session.access_jwt).scope === "com.atproto.access") {
                // That session is not kept: end it at once rather than leave a full-access session behind.
                await clientFor(service, session.refresh_jwt, sessionOptions, signal)
                    .com.atproto.server.deleteSession()
                    .catch(() => { });
                throw new adapter/* NetworkError */.D("bluesky", "refused", "That is the account's own password: make an app password in Bluesky's Settings → Privacy and security → App passwords, and connect with it");
            }
            return {
                handle: session.handle,
                followers: await followersOf(session, signal),
                health: "healthy",
                credentials: toCredentials(session),
            };
        },
        async publish(account, post) {
            const { signal } = post;
            (0,bluesky_embed/* checkMedia */.Pt)(post.media);
            const rkey = recordKeyFor(post.key);
            const text = fitTextBytes(post.text);
            return sessions.run(account, signal, async (session) => {
                const agent = client(session, signal);
                let record;
                try {
                    const { facets, links } = await facetsOf(text, agent, signal);
                    const embed = post.media.length > 0
                        ? await (0,bluesky_embed/* imagesEmbed */.wn)(agent, post.media, signal)
                        : links[0] !== undefined
                            ? (0,bluesky_embed/* linkCard */.Jn)(links[0])
                            : undefined;
                    record = {
                        $type: POST_COLLECTION,
                        text,
                        createdAt: new Date(sessionOptions.now()).toISOString(),
                        ...(facets.length > 0 ? { facets } : {}),
                        ...(embed ? { embed } : {}),
                    };
                }
                catch (error) {
                    throw passExpired(error, "preparing the post");
                }
                try {
                    await agent.com.atproto.repo.createRecord({ repo: session.did, collection: POST_COLLECTION, rkey, record, validate: true }, { signal });
                }
                catch (error) {
                    if (isExpiredSession(error))
                        throw error;
                    // A record already under this key is this post, made by an earlier attempt (the PDS refuses
                    // a second create of the same key), or made by this one before an error answer.
                    const status = xrpcStatus(error);
                    if (status !== undefined && status !== 429) {
                        const earlier = await readPost(session, rkey, signal).catch(() => null);
                        if (earlier)
                            return { id: rkey, permalink: (0,bluesky_adapter/* permalinkOf */.nS)(session.handle, rkey) };
                    }
                    throw classify(error, "publishing the post", true);
                }
                return { id: rkey, permalink: (0,bluesky_adapter/* permalinkOf */.nS)(session.handle, rkey) };
            });
        },
        async findPublished(account, lost, signal) {
            const rkey = recordKeyFor(lost.key);
            return sessions.run(account, signal, async (session) => {
                try {
                    const found = await readPost(session, rkey, signal);
                    return found ? { id: rkey, permalink: (0,bluesky_adapter/* permalinkOf */.nS)(session.handle, rkey) } : null;
                }
                catch (error) {
                    throw passExpired(error, "looking for the post");
                }
            });
        },
        async readFollowers(account, signal) {
            return sessions.run(account, signal, async (session) => {
                try {
                    const { data } = await client(session, signal).app.bsky.actor.getProfile({ actor: session.did }, { signal });
                    return data.followersCount ?? 0;
                }
                catch (error) {
                    throw passExpired(error, "reading the account's followers");
                }
            });
        },
        async readMetrics(account, post, signal) {
            return sessions.run(account, signal, async (session) => {
                try {
                    const { data } = await client(session, signal).app.bsky.feed.getPosts({ uris: [postUri(session.did, post.id)] }, { signal });
                    const view = data.posts[0];
                    if (!view)
                        return {};
                    // Bluesky reports no reach (no views or impressions): reach is left alone, never estimated.
                    return {
                        likes: view.likeCount ?? 0,
                        comments: view.replyCount ?? 0,
                        shares: (view.repostCount ?? 0) + (view.quoteCount ?? 0),
                    };
                }
                catch (error) {
                    throw passExpired(error, "reading the post's counts");
                }
            });
        },
    };
    /** The account's followers as the AppView counts them; 0 when the PDS has no AppView to ask. */
    async function followersOf(session, signal) {
        try {
            const { data } = await client(session, signal).app.bsky.actor.getProfile({ actor: session.did }, { signal });
            return data.followersCount ?? 0;
        }
        catch {
            return 0;
        }
    }
}


/***/ })

};
