// Kept in step with package.json by hand; the user agent names the SDK version.
export const VERSION = '0.1.0';
