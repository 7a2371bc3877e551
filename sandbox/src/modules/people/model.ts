/**
 * The people user model (v1User): the schema of every field a request may
 * write, the sub-schemas of its structures, and the defaults of unset fields.
 */
import type { FieldType, Schema } from '../../validate';

export const USER_SCHEMA: Schema = {
	// identity
	userId: 'string',
	firstName: 'string',
	lastName: 'string',
	middleName: 'string',
	name: 'string',
	displayName: 'string',
	aliasName: 'string',
	title: 'string',
	designation: 'string',
	emailId: 'string',
	contact: 'string',
	gender: 'string',
	username: 'string',
	nationality: 'string',
	department: 'string',
	profileImagePath: 'string',
	profileImageRelativePath: 'string',
	organizationName: 'string',
	tenantId: 'string',
	employeeId: 'string',
	employeeType: 'string',
	documentSequenceId: 'string',
	iamUserId: 'any',
	erpTenantId: 'string',
	appName: 'string',
	countryCode: 'string',
	contractorType: 'string',
	type: 'string',
	tenantUserId: 'string',
	// dates
	dateOfJoining: 'string',
	dateOfConfirmation: 'string',
	dateOfTermination: 'string',
	dateOfBirth: 'string',
	createdAt: 'string',
	prevDateOfJoining: 'string[]',
	// personal
	status: 'string',
	maritalStatus: 'string',
	passportNumber: 'string',
	passportCountry: 'string',
	socialSecurityNumber: 'string',
	employerIdentificationNumber: 'string',
	tenantCountryCode: 'string',
	tenantCurrencyCode: 'string',
	// structures
	address: 'object',
	roles: 'object[]',
	teams: 'object[]',
	approvers: 'object[]',
	// pay
	compensation: 'number',
	compensationPeriod: 'string',
	compensationCurrency: 'string',
	ctc: 'number',
	isEffectiveSalary: 'boolean',
	effectiveCompensations: 'object[]',
	paymentDetails: 'object',
	componentGroup: 'string',
	hasComponents: 'boolean',
	components: 'any[]',
	hasBenefits: 'boolean',
	benefits: 'any[]',
	hasSalaryAdvance: 'boolean',
	salaryAdvance: 'any',
	hasCompliance: 'boolean',
	compliance: 'object',
	// flags and misc
	isTerminated: 'boolean',
	terminationStage: 'string',
	deleted: 'boolean',
	isImported: 'boolean',
	isRehire: 'boolean',
	isInCompleteProfile: 'boolean',
	inCompleteFields: 'string[]',
	isContactUpdated: 'boolean',
	makePayroll: 'boolean',
	inviteUserToFillInfo: 'boolean',
	directDepositConsent: 'boolean',
	consentMailSend: 'boolean',
	hasDocuments: 'boolean',
	documents: 'any[]',
	announcements: 'any[]',
	customFieldData: 'object[]',
	customFields: 'object',
	profileStages: 'object',
	beneficiaryId: 'string',
	beneficiaryStatus: 'string',
	beneficiaryReason: 'string',
	locationValue: 'string',
	cnfrmDateUpdated: 'boolean',
	isFromQueue: 'boolean',
	checkHqError: 'boolean',
	checkEmployeeId: 'boolean',
};
export const ADDRESS_SCHEMA: Schema = {
	addressLine1: 'string',
	addressLine2: 'string',
	zipCode: 'string',
	city: 'string',
	state: 'string',
	country: 'string',
	suburb: 'string',
	county: 'string',
};
export const PAYMENT_SCHEMA: Schema = Object.fromEntries(
	[
		'bank',
		'bankId',
		'paymentMethod',
		'accountType',
		'routingNumber',
		'accountNumber',
		'branchCode',
		'branchName',
		'ifsc',
		'upi',
		'transitNumber',
		'institutionNumber',
	].map((k) => [k, 'string' as FieldType]),
);
export const EFFECTIVE_SCHEMA: Schema = {
	effectiveDate: 'string',
	compensation: 'number',
	period: 'string',
	isVisible: 'boolean',
	basicCompensation: 'number',
};
export const ROLE_SCHEMA: Schema = {
	roleId: 'string',
	name: 'string',
	appName: 'string',
	policies: 'string[]',
};
export const TEAM_SCHEMA: Schema = {
	teamId: 'string',
	name: 'string',
	createdAt: 'string',
	members: 'object[]',
	status: 'string',
	type: 'string',
};
export const MEMBER_SCHEMA: Schema = {
	userId: 'string',
	iamUserId: 'any',
	firstName: 'string',
	lastName: 'string',
	employeeId: 'string',
	roles: 'string[]',
};
export const APPROVER_SCHEMA: Schema = {
	firstName: 'string',
	lastName: 'string',
	designation: 'string',
	emailId: 'string',
	iamUserId: 'any',
};
export const CUSTOM_FIELD_DATA_SCHEMA: Schema = {
	id: 'string',
	customFieldId: 'string',
	value: 'string[]',
	userId: 'string',
	tenantId: 'any',
	iamUserId: 'any',
	module: 'string',
};
export const PROFILE_STAGES_SCHEMA: Schema = {
	employeeDetails: 'boolean',
	paymentDetails: 'boolean',
	witholdingSetup: 'boolean',
	filingAuthorization: 'boolean',
};
export const DATE_FIELDS = [
	'dateOfJoining',
	'dateOfConfirmation',
	'dateOfTermination',
	'dateOfBirth',
	'createdAt',
];
/** Kept on PUT/PATCH; set by the server or by the beneficiary endpoints. */
const SYSTEM_FIELDS = [
	'userId',
	'tenantId',
	'iamUserId',
	'createdAt',
	'erpTenantId',
	'beneficiaryId',
	'beneficiaryStatus',
	'beneficiaryReason',
];
export const WRITABLE = Object.keys(USER_SCHEMA).filter((k) => !SYSTEM_FIELDS.includes(k));
export const MERGED_OBJECTS = ['address', 'paymentDetails', 'profileStages', 'customFields'];

function blankValue(type: FieldType): unknown {
	if (type === 'string') return '';
	if (type === 'number' || type === 'integer') return 0;
	if (type === 'boolean') return false;
	if (type.endsWith('[]')) return [];
	return null;
}

const USER_DEFAULTS: Record<string, () => unknown> = {
	status: () => 'active',
	type: () => 'EMPLOYEE',
	makePayroll: () => true,
	profileStages: () => ({
		employeeDetails: false,
		paymentDetails: false,
		witholdingSetup: false,
		filingAuthorization: false,
	}),
	customFields: () => ({}),
};
/** The value a field has when it is not set (or cleared with null). */
export const userDefault = (k: string) =>
	USER_DEFAULTS[k] ? USER_DEFAULTS[k]() : blankValue(USER_SCHEMA[k]);
