/* eslint-disable @n8n/community-nodes/require-node-api-error -- development code, not published: linted by eslint.dev.config.mjs */
/**
 * OAuth 2.0 authorization-code flow, token exchange, refresh and validation as
 * the spec describes them, in the three modes the live platform may be in:
 *  - v1:        the refresh_token grant also returns a new platform token;
 *  - v1-legacy: the refresh_token grant renews only the OAuth tokens; only
 *               getrefreshtoken renews the platform token;
 *  - v2:        access_token is itself the platform token.
 * Refresh tokens rotate: a used refresh token stops working.
 */
import { randomBytes, randomUUID } from 'node:crypto';

import { ApiError, badRequest, json, type Ctx, type Reply, type Router } from './http';
import { Clock } from './state';

export type AuthMode = 'v1' | 'v1-legacy' | 'v2';

export interface AuthConfig {
	mode: AuthMode;
	clientId: string;
	clientSecret: string;
	/** Seconds an access (platform) token lives. */
	tokenTtl: number;
	/** Seconds an authorization code lives. */
	codeTtl: number;
	/** The word in `<brand>-token` / `<brand>-refresh-token` (the spec writes "platform"). */
	brand: string;
}

export interface Identity {
	tenantId: number;
	userId: number;
	username: string;
	email: string;
	org: string;
}

export interface Session extends Identity {
	token: string;
}

interface AccessToken {
	identity: Identity;
	expiresAt: number;
	/** Only platform tokens open the API; V1 OAuth access tokens are "unused" by the platform. */
	usable: boolean;
}

interface RefreshToken {
	identity: Identity;
	kind: 'oauth' | 'platform';
	scope: string;
	used: boolean;
	revoked: boolean;
	/** For v1 platform refresh tokens: their OAuth sibling, used up together. */
	family: string;
}

interface AuthCode {
	identity: Identity;
	clientId: string;
	redirectUri?: string;
	scope: string;
	expiresAt: number;
	used: boolean;
}

export interface AuthStats {
	authorizationCode: number;
	refreshGrant: number;
	getRefreshToken: number;
	failedRefresh: number;
	invalidToken: number;
}

const b64url = (v: unknown) =>
	Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

export class Auth {
	private readonly access = new Map<string, AccessToken>();
	private readonly refresh = new Map<string, RefreshToken>();
	private readonly codes = new Map<string, AuthCode>();
	stats: AuthStats = {
		authorizationCode: 0,
		refreshGrant: 0,
		getRefreshToken: 0,
		failedRefresh: 0,
		invalidToken: 0,
	};

	/**
	 * The time tokens and codes expire by: the machine's clock unless a test moves it (`sb.auth.clock.set({ advanceMs })`,
	 * or `POST /__admin/tokens/clock`). Its own, not the records' clock (`store.clock`): a polling test that jumps the
	 * records' time by weeks does not expire the tokens, and a test of expiry does not change the records' timestamps.
	 */
	readonly clock = new Clock();

	constructor(
		readonly config: AuthConfig,
		readonly identities: Identity[],
	) {}

	resetStats(): void {
		this.stats = {
			authorizationCode: 0,
			refreshGrant: 0,
			getRefreshToken: 0,
			failedRefresh: 0,
			invalidToken: 0,
		};
	}

	private jwt(identity: Identity, ttl: number, typ: string): string {
		const header = b64url({ alg: 'HS256', typ: 'JWT' });
		const payload = b64url({
			sub: String(identity.userId),
			tenantId: identity.tenantId,
			username: identity.username,
			typ,
			iat: Math.floor(this.clock.now() / 1000),
			exp: Math.floor(this.clock.now() / 1000) + ttl,
			jti: randomUUID(),
		});
		return `${header}.${payload}.${randomBytes(32).toString('base64url')}`;
	}

	private issueAccess(identity: Identity, usable: boolean, asJwt: boolean): string {
		const token = asJwt ? this.jwt(identity, this.config.tokenTtl, 'access') : randomUUID();
		this.access.set(token, {
			identity,
			usable,
			expiresAt: this.clock.now() + this.config.tokenTtl * 1000,
		});
		return token;
	}

	private issueRefresh(
		identity: Identity,
		kind: 'oauth' | 'platform',
		scope: string,
		family: string,
		asJwt: boolean,
	): string {
		const token = asJwt ? this.jwt(identity, 30 * 86400, 'refresh') : randomUUID();
		this.refresh.set(token, { identity, kind, scope, used: false, revoked: false, family });
		return token;
	}

	/** The token response of /oauth/token for this mode. */
	issueTokenResponse(
		identity: Identity,
		scope: string,
		withPlatformToken = true,
	): Record<string, unknown> {
		const { mode, tokenTtl, brand } = this.config;
		const family = randomUUID();
		const common = {
			token_type: 'bearer',
			expires_in: tokenTtl,
			scope,
			email: identity.email,
			username: identity.username,
			org: identity.org,
		};
		if (mode === 'v2') {
			return {
				access_token: this.issueAccess(identity, true, true),
				refresh_token: this.issueRefresh(identity, 'oauth', scope, family, true),
				...common,
			};
		}
		const response: Record<string, unknown> = {
			access_token: this.issueAccess(identity, false, false),
			refresh_token: this.issueRefresh(identity, 'oauth', scope, family, false),
			...common,
		};
		if (withPlatformToken) {
			response[`${brand}-token`] = this.issueAccess(identity, true, true);
			response[`${brand}-refresh-token`] = this.issueRefresh(
				identity,
				'platform',
				scope,
				family,
				true,
			);
		}
		return response;
	}

	/** The x-access-token check of every API route. */
	authenticate(token: string | undefined): Session {
		if (!token) {
			this.stats.invalidToken++;
			throw new ApiError(401, 'Invalid token!', [], 'The x-access-token header is missing');
		}
		const entry = this.access.get(token);
		if (!entry || !entry.usable) {
			this.stats.invalidToken++;
			throw new ApiError(401, 'Invalid token!', [], 'The token is not a platform access token');
		}
		if (entry.expiresAt <= this.clock.now()) {
			this.stats.invalidToken++;
			throw new ApiError(401, 'Invalid token!', [], 'The token has expired');
		}
		return { ...entry.identity, token };
	}

	/** Admin: make every access token expired now (or those `which` picks). */
	expireAll(which: (token: string) => boolean = () => true): number {
		let expired = 0;
		for (const [token, t] of this.access)
			if (which(token)) {
				t.expiresAt = this.clock.now() - 1;
				expired++;
			}
		return expired;
	}

	/** The access tokens issued so far (a test expires only those of its own credential). */
	accessTokens(): string[] {
		return [...this.access.keys()];
	}

	/** Admin: revoke every refresh token (the user disconnected the app). */
	revokeAllRefresh(): number {
		for (const r of this.refresh.values()) r.revoked = true;
		return this.refresh.size;
	}

	createCode(
		identity: Identity,
		clientId: string,
		redirectUri: string | undefined,
		scope: string,
	): string {
		const code = randomBytes(16).toString('hex');
		this.codes.set(code, {
			identity,
			clientId,
			redirectUri,
			scope,
			used: false,
			expiresAt: this.clock.now() + this.config.codeTtl * 1000,
		});
		return code;
	}

	identity(username: string | undefined): Identity {
		const found = username
			? this.identities.find((i) => i.username === username || i.email === username)
			: this.identities[0];
		if (!found) throw badRequest(`Unknown user ${username}`);
		return found;
	}

	private useRefresh(token: string | undefined, kind: 'oauth' | 'platform'): RefreshToken {
		const entry = token ? this.refresh.get(token) : undefined;
		const fail = (description: string) => {
			this.stats.failedRefresh++;
			return new OAuthError(400, 'invalid_grant', description);
		};
		if (!entry || entry.kind !== kind) throw fail('The refresh token is not valid');
		if (entry.revoked)
			throw fail('The refresh token was revoked; the user must authorize the application again');
		if (entry.used) throw fail('The refresh token was already used (refresh tokens rotate)');
		entry.used = true;
		// In v1 one refresh renews both token pairs, so it uses up the platform sibling as well.
		// In v1-legacy the two pairs are renewed separately and live on independently.
		if (this.config.mode === 'v1')
			for (const other of this.refresh.values())
				if (other.family === entry.family) other.used = true;
		return entry;
	}

	// ----- endpoints -----

	tokenEndpoint(ctx: Ctx<unknown>): Reply {
		const params: Record<string, string> = Object.fromEntries(ctx.query.params);
		if (ctx.body && typeof ctx.body === 'object' && !Array.isArray(ctx.body)) {
			for (const [k, v] of Object.entries(ctx.body as Record<string, unknown>))
				if (v !== undefined && v !== null) params[k] = String(v);
		}
		this.checkClient(ctx, params);
		const grant = params.grant_type;
		if (grant === 'authorization_code') {
			const code = params.code ? this.codes.get(params.code) : undefined;
			if (!code) throw new OAuthError(400, 'invalid_grant', 'The authorization code is not valid');
			if (code.used)
				throw new OAuthError(400, 'invalid_grant', 'The authorization code was already used');
			if (code.expiresAt <= this.clock.now())
				throw new OAuthError(400, 'invalid_grant', 'The authorization code has expired');
			if (code.redirectUri && params.redirect_uri && params.redirect_uri !== code.redirectUri) {
				throw new OAuthError(
					400,
					'invalid_grant',
					'redirect_uri does not match the authorization request',
				);
			}
			code.used = true;
			this.stats.authorizationCode++;
			return json(200, this.issueTokenResponse(code.identity, params.scope ?? code.scope));
		}
		if (grant === 'refresh_token') {
			const entry = this.useRefresh(params.refresh_token, 'oauth');
			this.stats.refreshGrant++;
			const withPlatform = this.config.mode !== 'v1-legacy';
			return json(
				200,
				this.issueTokenResponse(entry.identity, params.scope ?? entry.scope, withPlatform),
			);
		}
		throw new OAuthError(
			400,
			'unsupported_grant_type',
			`grant_type ${grant ?? '(missing)'} is not supported`,
		);
	}

	private checkClient(ctx: Ctx<unknown>, params: Record<string, string>): void {
		let id = params.client_id;
		let secret = params.client_secret;
		const header = ctx.headers.authorization;
		if (header?.startsWith('Basic ')) {
			const decoded = Buffer.from(header.slice(6), 'base64').toString();
			const i = decoded.indexOf(':');
			id = decodeURIComponent(decoded.slice(0, i));
			secret = decodeURIComponent(decoded.slice(i + 1));
		}
		if (id !== this.config.clientId || secret !== this.config.clientSecret) {
			throw new OAuthError(
				401,
				'invalid_client',
				'Client authentication failed: check the client id and secret',
			);
		}
	}

	getRefreshToken(ctx: Ctx<unknown>): Reply {
		const body = (ctx.body ?? {}) as Record<string, unknown>;
		if (
			typeof body.refreshToken !== 'string' ||
			typeof body.userName !== 'string' ||
			typeof body.tenantId !== 'number'
		) {
			throw badRequest('refreshToken, userName and tenantId are required', [
				{ field: 'refreshToken', error: 'string required' },
				{ field: 'userName', error: 'string required' },
				{ field: 'tenantId', error: 'integer required' },
			]);
		}
		let entry: RefreshToken;
		try {
			entry = this.useRefresh(body.refreshToken, 'platform');
		} catch (e) {
			throw new ApiError(401, 'Invalid refresh token', [], e instanceof Error ? e.message : '');
		}
		if (entry.identity.username !== body.userName || entry.identity.tenantId !== body.tenantId) {
			throw new ApiError(
				401,
				'Invalid refresh token',
				[],
				'userName or tenantId does not match the refresh token',
			);
		}
		this.stats.getRefreshToken++;
		const family = randomUUID();
		return json(200, {
			accessToken: this.issueAccess(entry.identity, true, true),
			refreshToken: this.issueRefresh(entry.identity, 'platform', entry.scope, family, true),
			idToken: this.jwt(entry.identity, this.config.tokenTtl, 'id'),
			expiresIn: this.config.tokenTtl,
			tokenType: 'bearer',
			emailVerified: true,
			isTrialUser: false,
			isMFAEnabled: false,
			guid: randomUUID(),
		});
	}

	/** The OAuth and IAM endpoints but the authorization page (oauth-page.ts). */
	register(router: Router<Session>): void {
		router.add('POST', '/oauth/token', (ctx) => this.tokenEndpoint(ctx), { auth: 'none' });
		router.add('POST', '/v1/iam/auth/app/getrefreshtoken', (ctx) => this.getRefreshToken(ctx), {
			auth: 'none',
		});
		router.add('GET', '/v1/iam/token/app/validate', (ctx) => {
			const s = ctx.session as Session;
			return json(200, { valid: true, username: s.username, tenantId: s.tenantId });
		});
	}
}

/** OAuth errors use the RFC 6749 body, not the platform's. */
export class OAuthError extends ApiError {
	constructor(
		status: number,
		readonly code: string,
		description: string,
	) {
		super(status, description);
	}
}
