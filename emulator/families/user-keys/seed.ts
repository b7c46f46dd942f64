/** The user key family's facts of the default fixture: the email addresses each user owns. */
import type { Fixture } from "../../core/fixture";

declare module "../../core/fixture" {
  interface Fixture {
    /**
     * Login -> the email addresses the user owns (all verified). A GPG key's email is shown verified
     * when it is one of its owner's. Optional: fixtures written before it have no addresses.
     */
    userEmails?: Record<string, string[]>;
  }
}

export function userKeyFixture(): Pick<Fixture, "userEmails"> {
  return {
    userEmails: Object.fromEntries(
      ["admin", "olivia", "octocat", "mona", "hubot", "billie"].map((login) => [
        login,
        [`${login}@acme.example`],
      ]),
    ),
  };
}
