import type { ComponentChildren } from "preact";
import type { Account, NetworkRule } from "../api/types.ts";
import { ErrorMessage } from "./parts.tsx";

/**
 * The accounts page a sandbox key and a live key both see: a heading, what the page does, the
 * listing's error and the last action's, and a table of one row a network. The rows are the mode's own
 * (a sandbox row sets health, a live row takes credentials); `AccountCells` starts each of them.
 */
export function AccountsPage(props: {
  title: string;
  help: ComponentChildren;
  /** Why the listing could not be read, if it could not. */
  loadError: unknown;
  /** Why the last connect, disconnect or change failed, if it did. */
  error: string | null;
  caption: string;
  children: ComponentChildren;
}) {
  return (
    <section aria-labelledby="accounts-title">
      <h1 id="accounts-title" tabIndex={-1}>
        {props.title}
      </h1>
      <p class="help">{props.help}</p>
      <ErrorMessage error={props.loadError} />
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <div class="table-wrap">
        <table>
          <caption class="visually-hidden">{props.caption}</caption>
          <thead>
            <tr>
              <th scope="col">Network</th>
              <th scope="col">Account</th>
              <th scope="col">Health</th>
              <th scope="col">Connection</th>
            </tr>
          </thead>
          <tbody>{props.children}</tbody>
        </table>
      </div>
    </section>
  );
}

/** A row's first two cells: the network, and its account's handle and followers or "not connected". */
export function AccountCells({ rule, account }: { rule: NetworkRule; account: Account | undefined }) {
  return (
    <>
      <th scope="row">{rule.name}</th>
      <td>
        {account ? (
          <>
            {account.handle} <span class="muted">· {account.followers.toLocaleString("en")} followers</span>
          </>
        ) : (
          <span class="muted">not connected</span>
        )}
      </td>
    </>
  );
}
