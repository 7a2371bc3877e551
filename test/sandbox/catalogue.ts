/**
 * The endpoints of the platform contract (contract/openapi.yaml) that carry a token:
 * every method-and-path row of the API documents, with the success status each
 * documents. Derived from the contract, never written here; `catalogue.test.ts` holds
 * it against the sandbox's routes and `catalogue-success.test.ts` proves each one.
 */
import { loadContract, type Module } from '../../sandbox/src/contract/load';

export interface Endpoint {
	method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
	/** With `:name` parameters, as the sandbox's router writes them. */
	path: string;
	status: number;
	module: Exclude<Module, 'auth'>;
}

export const CONTRACT = loadContract();

export const ENDPOINTS: Endpoint[] = CONTRACT.operations
	.filter((op) => op.module !== 'auth')
	.map((op) => ({
		method: op.method as Endpoint['method'],
		path: op.path.replace(/\{([^}]+)\}/g, ':$1'),
		status: Number([...op.responses.keys()].find((k) => /^2\d\d$/.test(k))),
		module: op.module as Endpoint['module'],
	}));

/** `/v1/crm/contacts/{id}` and `/v1/crm/contacts/:id` compare equal. */
export const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z]+/g, ':p');
