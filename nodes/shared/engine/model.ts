/**
 * The operation model: each endpoint is one `Operation` (method, path, fields with
 * where each goes on the wire, paging style), grouped in `Resource`s. The node's UI
 * (description.ts) and its requests (request.ts, execute.ts) are both made from it.
 * An operation that does more than "fields to a request, the answer to items" says so
 * in its own `execute`, in plain code with the helpers of `OpContext`.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
	INodePropertyOptions,
	NodeOperationError,
	ResourceMapperFields,
} from 'n8n-workflow';

import type { PageStyle } from '../pagination';
import type { RunScope } from '../run-scope';
import type { ApiRequest } from '../transport';

/** Where a field's value goes on the wire. */
export interface Send {
	in: 'path' | 'query' | 'body';
	/** Wire name; defaults to the property name. Dotted keys build nested objects (`address.city`). */
	key?: string;
	/** UI value → wire value. Return undefined to send nothing. May throw `ctx.fail(...)`. */
	map?: (value: unknown, ctx: OpContext) => unknown;
	/** Send empty strings and empty lists too (default: left out). */
	keepEmpty?: boolean;
	/** A list joined, without repeats, with a list another field already put under this key (default: replaces it). */
	merge?: boolean;
}

export interface Field {
	property: INodeProperties;
	send?: Send;
	/** For collections and fixed collections: the children, each with its own `send`. */
	children?: Field[];
}

/** What an operation's `execute` (and a field's `map`) gets for one item. */
export interface OpContext {
	fn: IExecuteFunctions;
	/** The execution's run scope (values read once, files of output items). */
	scope: RunScope<IExecuteFunctions>;
	itemIndex: number;
	operation: Operation;
	/**
	 * A node parameter of this item (resource locators give their value). An expression
	 * that fails, or any other error reading it, fails the item with the parameter's name.
	 */
	param<T = unknown>(name: string, fallback?: T): T;
	/** The item's request as the operation's fields give it (method, path filled, query, body), read before its turn. */
	fromFields(): BuiltRequest;
	/** Sends a built request the way the operation sends it (its retry, region and text settings); a list walks its pages up to Return All/Limit. */
	send<T = unknown>(req: BuiltRequest): Promise<T>;
	/** One API request for this item (with its index in errors). */
	request<T = unknown>(req: ApiRequest): Promise<T>;
	/** A list request through the operation's paging style. */
	paginate(req: ApiRequest, style: PageStyle, limit?: number): Promise<IDataObject[]>;
	/** A NodeOperationError that names this item. */
	fail(message: string, description?: string): NodeOperationError;
}

export interface BuiltRequest {
	method: IHttpRequestMethods;
	path: string;
	qs: IDataObject;
	body: IDataObject;
	/** Replaces `body` when set (endpoints whose body is an array or a scalar). */
	rawBody?: unknown;
	/** Whether the body should be sent at all (default: for POST, PUT, PATCH, or when not empty). */
	sendBody?: boolean;
}

export type Output = IDataObject | IDataObject[] | undefined;

export interface Operation {
	value: string;
	name: string;
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** Path with `{param}` placeholders, filled from fields sent `in: 'path'`. */
	path: string;
	/** Served by the regional base URL when the credential has one. */
	regional?: boolean;
	/** `never` for operations that must not be repeated automatically (payroll postings). */
	retry?: 'auto' | 'never';
	/** A POST that only reads (searches): safe to repeat after a 5xx or a dropped connection. */
	idempotent?: boolean;
	/** Text answers (markup, confirmations). */
	text?: boolean;
	fields?: Field[];
	/** A list endpoint: adds Return All and Limit and walks the pages in this style. */
	paginate?: PageStyle;
	/** Adds a Simplify switch (on by default) that maps each output item. */
	simplify?: (item: IDataObject) => IDataObject;
	/**
	 * The item's own checks of its input, beyond its fields' (which collectRequest makes): what
	 * must hold before anything is sent (a name that is not empty, a date range in order). It gets
	 * the item's request as its fields give it and throws `ctx.fail(...)` for bad input; it sends
	 * nothing. What it checked it may put in the request (the same object `execute` then gets), so
	 * a value is read once and sent as checked. When the node stops on errors, every item is checked before the first request of
	 * the run, so a bad item stops it with nothing written; with Continue On Fail, at the item's turn.
	 */
	check?: (req: BuiltRequest, ctx: OpContext) => void | Promise<void>;
	/**
	 * What the operation does for one item when it is more than the default (send the request
	 * its fields give, the answer as items: arrays split, objects kept, empty → `{ success: true }`):
	 * a computed body, a read-back, a shaped answer. Plain code with `ctx.fromFields()`,
	 * `ctx.send()` and `ctx.request()`; `req` is the item's request as its fields give it (what
	 * `ctx.fromFields()` gives), its input checked (`check`) before it runs.
	 */
	execute?: (ctx: OpContext, req: BuiltRequest) => Promise<Output>;
	/** Why the operation has its own `execute`, in a sentence (required with it; docs/ARCHITECTURE.md lists them). */
	why?: string;
	/**
	 * Items with the same key (read from the item before its turn) talk to the platform one after
	 * another, in input order, whatever Parallel Requests says: an upsert finds what an earlier item
	 * of the run created instead of creating it again.
	 */
	serialKey?: (ctx: OpContext) => string | undefined;
	/** A POST that only reads (Get Many by IDs): a failure elsewhere does not list it among written records. */
	readOnly?: boolean;
	/** What the operation gives back, for the tool description a model reads ("the created contact"); derived when not set. */
	returns?: string;
	/** A last sentence of the tool description a model reads: which tool to call first, how to give the input. */
	toolHint?: string;
}

/** Pickers (n8n's `methods`): each runs with its own run scope. */
export interface ResourceMethods {
	listSearch?: Record<
		string,
		(
			this: ILoadOptionsFunctions,
			filter?: string,
			paginationToken?: string,
		) => Promise<INodeListSearchResult>
	>;
	loadOptions?: Record<string, (this: ILoadOptionsFunctions) => Promise<INodePropertyOptions[]>>;
	resourceMapping?: Record<string, (this: ILoadOptionsFunctions) => Promise<ResourceMapperFields>>;
}

export interface Resource {
	value: string;
	name: string;
	description?: string;
	operations: Operation[];
	/** Pickers this resource's fields use; the node merges them from all its resources (methods.ts). */
	methods?: ResourceMethods;
}
