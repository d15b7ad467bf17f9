// @ts-check
// The sign-in page: signing in and signing up, each with a passkey or a name and password.
// The server's refusal is shown in its words; after success the page goes to `?next=` (a
// path of this site only) or to /me.

import { me, onAccount, returnAddress, setAccount } from "./account.js";
import { $, h } from "./dom.js";
import { errorText, post } from "./net.js";
import { createPasskey, getPasskey, passkeyError, passkeysSupported } from "./passkey.js";

/** @typedef {import("./types.js").Account} Account */

const NAME = /^[A-Za-z0-9_-]{3,20}$/;

/**
 * The page: which request is under way (one at a time).
 * @typedef {object} SigninPage
 * @property {boolean} busy
 */

/** @type {SigninPage} */
const page = { busy: false };

const next = new URLSearchParams(location.search).get("next");

/**
 * Shows a form's error (empty: none), and marks the fields it is about.
 * @param {"signin" | "signup"} form
 * @param {string} text
 * @param {HTMLInputElement[]} [fields] the fields at fault
 */
function error(form, text, fields = []) {
  $(`${form}-error`).textContent = text;
  for (const input of document.querySelectorAll(`#${form}-form input`)) {
    input.setAttribute("aria-invalid", String(fields.includes(/** @type {HTMLInputElement} */ (input))));
  }
  if (fields.length) fields[0].focus();
}

/**
 * Runs one request at a time with the page's buttons disabled; a refusal shows as the form's
 * error.
 * @param {"signin" | "signup"} form
 * @param {() => Promise<{account: Account}>} action
 */
async function run(form, action) {
  if (page.busy) return;
  page.busy = true;
  error("signin", "");
  error("signup", "");
  const buttons = /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("#forms button"));
  buttons.forEach((b) => (b.disabled = true));
  $(`${form}-error`).textContent = "One moment…";
  try {
    const answer = await action();
    $(`${form}-error`).textContent = "";
    setAccount(answer.account);
    location.assign(returnAddress(next));
  } catch (exc) {
    $(`${form}-error`).textContent = passkeyError(exc);
  } finally {
    page.busy = false;
    buttons.forEach((b) => (b.disabled = false));
  }
}

/** The name of the sign-up form, checked here first; null (and the error shown) if not valid. */
function signupName() {
  const input = $("signup-name", HTMLInputElement);
  const name = input.value.trim();
  if (!NAME.test(name)) {
    error("signup", "A name is 3 to 20 letters, digits, _ or -.", [input]);
    return null;
  }
  return name;
}

async function signinPasskey() {
  await run("signin", async () => {
    /** @type {{ticket: string, options: unknown}} */
    const offer = await post("/api/account/passkey/options", { purpose: "signin" });
    const credential = await getPasskey(offer.options);
    return post("/api/account/passkey/signin", { ticket: offer.ticket, credential });
  });
}

async function signinPassword() {
  const name = $("signin-name", HTMLInputElement);
  const password = $("signin-password", HTMLInputElement);
  if (!name.value.trim()) return error("signin", "Type your name.", [name]);
  if (!password.value) return error("signin", "Type your password.", [password]);
  await run("signin", () => post("/api/account/signin", { name: name.value.trim(), password: password.value }));
}

async function signupPasskey() {
  const name = signupName();
  if (!name) return;
  await run("signup", async () => {
    /** @type {{ticket: string, options: unknown}} */
    const offer = await post("/api/account/passkey/options", { purpose: "signup", name });
    const credential = await createPasskey(offer.options);
    return post("/api/account/passkey/signup", { ticket: offer.ticket, credential });
  });
}

async function signupPassword() {
  const name = signupName();
  if (!name) return;
  const password = $("signup-password", HTMLInputElement);
  if (password.value.length < 8) return error("signup", "A password has at least 8 characters (or create the account with a passkey).", [password]);
  await run("signup", () => post("/api/account/signup", { name, password: password.value }));
}

/** @param {Account | null} account */
function showAccount(account) {
  $("signed-in").classList.toggle("hidden", !account);
  if (!account) return;
  const target = returnAddress(next);
  $("continue", HTMLAnchorElement).href = target;
  $("signed-in-text").replaceChildren(
    "You are signed in as ",
    h("strong", {}, account.name),
    ". Signing in below switches to another account.",
  );
}

function start() {
  if (!passkeysSupported()) {
    document.querySelectorAll(".passkey-only").forEach((el) => el.classList.add("hidden"));
    $("no-passkeys").classList.remove("hidden");
  }
  $("signin-passkey").addEventListener("click", signinPasskey);
  $("signup-passkey").addEventListener("click", signupPasskey);
  $("signin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    signinPassword().catch((exc) => error("signin", errorText(exc)));
  });
  $("signup-form").addEventListener("submit", (event) => {
    event.preventDefault();
    signupPassword().catch((exc) => error("signup", errorText(exc)));
  });
  onAccount(showAccount);
  me();
}

start();
