// Its own module, imported by every module that checks an input (inputs.ts reads them all through
// those modules, so holding the class there made each of them import its own importer).

/** A wrong input: the message names the input and says what it accepts. */
export class InputError extends Error {
  override name = "InputError";
}
