/** Defaults of the OpenTelemetry package that change behaviour, in one place. */

/** Texts on spans (reasons, error messages, stacks) are cut at this length unless `sanitize.maxStringLength` says otherwise. */
export const DEFAULT_MAX_TEXT_LENGTH = 2000;
