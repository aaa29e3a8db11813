import { newId, type PlanName, type Store, type UserRecord } from "@socialpub/core";
import { CliError } from "../errors.ts";

export interface NewUser {
  email: string;
  name: string;
  studio: string;
  plan: PlanName;
}

/** A deliberately loose check: enough to catch a name typed where the e-mail belongs. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export async function createUser(store: Store, input: NewUser, now = Date.now()): Promise<UserRecord> {
  if (!EMAIL.test(input.email)) throw new CliError(`--email "${input.email}" is not an e-mail address.`);
  if (await store.findUserByEmail(input.email)) {
    throw new CliError(`a user with e-mail ${input.email} already exists.`);
  }
  const user: UserRecord = { id: newId("usr", now), ...input, created_at: now };
  await store.createUser(user);
  return user;
}

/** The user named by id (usr_…) or e-mail, or a one-line error saying how to find one. */
export async function findUser(store: Store, idOrEmail: string): Promise<UserRecord> {
  const user = idOrEmail.includes("@")
    ? await store.findUserByEmail(idOrEmail)
    : await store.getUser(idOrEmail);
  if (!user)
    throw new CliError(`no user "${idOrEmail}" in this database (see: socialpub-server users list).`);
  return user;
}
