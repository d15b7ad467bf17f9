// @ts-check
// Passkeys (WebAuthn): the server's options come as WebAuthn's JSON (binary fields in
// base64url); the browser wants ArrayBuffers; the credential it makes or shows goes back as
// JSON again, in the shape the server's `webauthn` library reads: `id`, `rawId`, `type`,
// `response` (create: `clientDataJSON`, `attestationObject`, `transports`; get:
// `clientDataJSON`, `authenticatorData`, `signature`, `userHandle`), `clientExtensionResults`
// and `authenticatorAttachment`, every binary field base64url without padding.

/**
 * Whether this browser can make and use passkeys at all.
 * @returns {boolean}
 */
export function passkeysSupported() {
  return typeof window.PublicKeyCredential === "function" && Boolean(navigator.credentials);
}

/**
 * base64url (padding optional) to bytes.
 * @param {string} text
 * @returns {ArrayBuffer}
 */
export function fromBase64url(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/**
 * Bytes to base64url without padding.
 * @param {ArrayBuffer | ArrayBufferView} data
 * @returns {string}
 */
export function toBase64url(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The options as the server sent them: `{publicKey: {...}}` or the dictionary itself.
 * @param {any} options
 * @returns {any}
 */
function unwrap(options) {
  return options && options.publicKey ? options.publicKey : options;
}

/**
 * A credential descriptor list with its ids as bytes.
 * @param {{id: string, type?: string, transports?: string[]}[] | undefined} list
 * @returns {PublicKeyCredentialDescriptor[] | undefined}
 */
function descriptors(list) {
  if (!Array.isArray(list)) return undefined;
  return list.map((c) => ({ ...c, type: "public-key", id: fromBase64url(c.id), transports: /** @type {AuthenticatorTransport[]} */ (c.transports) }));
}

/**
 * PublicKeyCredentialCreationOptions from their JSON.
 * @param {any} json
 * @returns {PublicKeyCredentialCreationOptions}
 */
export function creationOptions(json) {
  const options = unwrap(json);
  return {
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: descriptors(options.excludeCredentials) || [],
  };
}

/**
 * PublicKeyCredentialRequestOptions from their JSON.
 * @param {any} json
 * @returns {PublicKeyCredentialRequestOptions}
 */
export function requestOptions(json) {
  const options = unwrap(json);
  return { ...options, challenge: fromBase64url(options.challenge), allowCredentials: descriptors(options.allowCredentials) || [] };
}

/**
 * A credential's fields shared by create and get, as JSON.
 * @param {PublicKeyCredential} credential
 */
function common(credential) {
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    clientExtensionResults: {},
    authenticatorAttachment: credential.authenticatorAttachment || undefined,
  };
}

/**
 * A new credential (navigator.credentials.create) as WebAuthn's registration JSON.
 * @param {PublicKeyCredential} credential
 */
export function registrationJSON(credential) {
  const response = /** @type {AuthenticatorAttestationResponse} */ (credential.response);
  const transports = typeof response.getTransports === "function" ? response.getTransports() : undefined;
  return {
    ...common(credential),
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      attestationObject: toBase64url(response.attestationObject),
      transports,
    },
  };
}

/**
 * An assertion (navigator.credentials.get) as WebAuthn's authentication JSON.
 * @param {PublicKeyCredential} credential
 */
export function authenticationJSON(credential) {
  const response = /** @type {AuthenticatorAssertionResponse} */ (credential.response);
  return {
    ...common(credential),
    response: {
      clientDataJSON: toBase64url(response.clientDataJSON),
      authenticatorData: toBase64url(response.authenticatorData),
      signature: toBase64url(response.signature),
      userHandle: response.userHandle ? toBase64url(response.userHandle) : null,
    },
  };
}

/**
 * Makes a passkey with the server's creation options; returns its JSON for the server.
 * @param {any} options the server's options (JSON)
 */
export async function createPasskey(options) {
  const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.create({ publicKey: creationOptions(options) }));
  if (!credential) throw new Error("No passkey was made.");
  return registrationJSON(credential);
}

/**
 * Asks the browser for a passkey with the server's request options; returns the assertion's
 * JSON for the server.
 * @param {any} options the server's options (JSON)
 */
export async function getPasskey(options) {
  const credential = /** @type {PublicKeyCredential | null} */ (await navigator.credentials.get({ publicKey: requestOptions(options) }));
  if (!credential) throw new Error("No passkey was given.");
  return authenticationJSON(credential);
}

/**
 * A failure of the browser's passkey dialog in words (a refusal of the server is its own).
 * @param {unknown} exc
 * @returns {string}
 */
export function passkeyError(exc) {
  if (exc instanceof DOMException) {
    if (exc.name === "NotAllowedError") return "The passkey dialog was closed or timed out: nothing was done.";
    if (exc.name === "InvalidStateError") return "This device already holds a passkey for this account.";
    if (exc.name === "SecurityError") return "Passkeys need this site's own name in the address (not an IP address) and HTTPS, or localhost.";
    if (exc.name === "NotSupportedError") return "This browser or device cannot make a passkey of the kind asked for.";
  }
  return exc instanceof Error ? exc.message : String(exc);
}
