/**
 * The credentials helper the n8n-core harness hands n8n in place of its database: it reports the OAuth2 parent
 * type, keeps the stored credential, and records every update n8n saves; and the stored credential for a sandbox.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeCredentialsDetails,
	INodeProperties,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper, UnexpectedError } from 'n8n-workflow';

import { BusinessPlatformOAuth2Api } from '../../credentials/BusinessPlatformOAuth2Api.credentials';

import { sandboxCredentialData } from '../credential-data';
import type { Sandbox } from '../../sandbox/src/server';

export const CREDENTIAL_TYPE = 'businessPlatformOAuth2Api';

const clone = <T>(v: T): T => structuredClone(v);

interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

export class TestCredentialsHelper extends ICredentialsHelper {
	readonly store = new Map<string, StoredCredential>();
	/** Every save n8n made, in order. */
	readonly saves: Array<{ id: string; data: ICredentialDataDecryptedObject }> = [];
	private readonly types: Record<string, ICredentialType> = {
		[CREDENTIAL_TYPE]: new BusinessPlatformOAuth2Api(),
	};

	/** The harness's credential (createHarness: 'cred-1' unless given another id). */
	defaultId = 'cred-1';

	add(cred: StoredCredential): void {
		this.store.set(cred.id, clone(cred));
	}

	data(id = this.defaultId): ICredentialDataDecryptedObject {
		return clone(this.store.get(id)!.data);
	}

	getParentTypes(name: string): string[] {
		const parents = this.types[name]?.extends ?? [];
		return parents.flatMap((p) => [p, ...this.getParentTypes(p)]);
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types[type]?.properties ?? [];
	}

	async getCredentials(): Promise<ICredentials> {
		throw new UnexpectedError('getCredentials is not used by the harness');
	}

	async getDecrypted(
		_a: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		_mode?: unknown,
		_ed?: unknown,
		raw?: boolean,
	): Promise<ICredentialDataDecryptedObject> {
		const cred = nodeCredentials.id ? this.store.get(nodeCredentials.id) : undefined;
		if (!cred || cred.type !== type)
			throw new UnexpectedError(`No credential ${nodeCredentials.id} of type ${type}`);
		if (raw) return clone(cred.data);
		// Property defaults, then the stored data. Expression defaults are not evaluated here:
		// the stored test credential carries authUrl and accessTokenUrl explicitly.
		const defaults: ICredentialDataDecryptedObject = {};
		for (const p of this.getCredentialsProperties(type))
			if (typeof p.default !== 'string' || !p.default.startsWith('='))
				defaults[p.name] = p.default as never;
		return { ...defaults, ...clone(cred.data) };
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const cred = this.store.get(nodeCredentials.id!)!;
		cred.data = clone(data);
		this.saves.push({ id: cred.id, data: clone(data) });
	}

	/** Like n8n's CLI: only oauthTokenData is written back. */
	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const cred = this.store.get(nodeCredentials.id!)!;
		cred.data = { ...cred.data, oauthTokenData: clone(data.oauthTokenData) };
		this.saves.push({ id: cred.id, data: { oauthTokenData: clone(data.oauthTokenData) } });
	}

	async authenticate(
		_c: ICredentialDataDecryptedObject,
		_t: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		return requestOptions;
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	/** Like n8n's CLI: the credential's preAuthentication with only a plain httpRequest helper. */
	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const pre = this.types[typeName]?.preAuthentication;
		if (typeof pre !== 'function') return undefined;
		const narrowed: IHttpRequestHelper = {
			helpers: {
				httpRequest: async (o: IHttpRequestOptions) => await helpers.helpers.httpRequest(o),
			},
		};
		return ((await pre.call(narrowed, credentials)) as ICredentialDataDecryptedObject) ?? undefined;
	}
}

/** The stored credential for a sandbox and a token response (as n8n keeps it after Connect). */
export function sandboxCredential(
	sb: Sandbox,
	tokenResponse: Record<string, unknown>,
	extra: IDataObject = {},
): ICredentialDataDecryptedObject {
	return {
		...sandboxCredentialData({ ...sb.config, baseUrl: sb.baseUrl, authUrl: sb.authUrl }),
		grantType: 'authorizationCode',
		authUrl: sb.authUrl,
		accessTokenUrl: `${sb.baseUrl}/oauth/token`,
		authQueryParameters: '',
		authentication: 'header',
		oauthTokenData: clone(tokenResponse),
		...extra,
	} as ICredentialDataDecryptedObject;
}
