/**
 * OrgActionsSecret: an Actions secret of an organisation (`/orgs/{org}/actions/secrets/{secret_name}`),
 * its value sealed on the client for the organisation's public key and never kept (secret-value.ts
 * says how a value changed outside Pulumi is still seen), and the repositories that may use it.
 *
 * The name is the secret's identity: create is one PUT (create or update) carrying the value and
 * the visibility, so a secret already there under that name is adopted by construction. With
 * visibility "selected", the PUT carries the repository ids too (the platform replaces the list);
 * read lists them (`.../repositories`) and compares them as a set.
 *
 * An outside write of the secret (its value, or its visibility alone: the platform's `updated_at`
 * does not say which) is reported as a change of `value` too, so the program's value is sent
 * again with the visibility: the safe reading of what cannot be told apart.
 */
import { z } from "zod";
import {
  ACTIONS_VISIBILITIES,
  type ApiActionsSecret,
  type ApiActionsSecretWrite,
  actionsRoutes,
} from "../../../api/actions";
import { knownValue } from "../../client/errors";
import { fields } from "../../internal/check";
import { client } from "../../internal/context";
import { type ArgsOf, declareKind, type Found, field, type OutputsOfKind } from "../../internal/declare";
import { lowerCased } from "../../internal/diff";
import { defineProvider, deleteIgnoringGone, readOrGone } from "../../internal/lifecycle";
import { compact } from "../../internal/outputs";
import { resourceClass } from "../../internal/resource";
import { secretApi } from "./actions-api";
import { plaintextFor, recordSecretValue, valueAfterRead } from "./secret-value";
import {
  ACCESS,
  actionsOutputs,
  nameField,
  orgScope,
  secretValueField,
  selectedOnly,
  visibilityFields,
} from "./shared";

export const orgActionsSecretKind = declareKind({
  kind: "OrgActionsSecret",
  description:
    "An Actions secret of an organisation (`/orgs/{org}/actions/secrets/{secret_name}`), its value **sealed on the client** for the organisation's public key and never stored in state, and which of its repositories may use it. Needs the token of an organisation owner: classic scope `admin:org`, or the fine-grained permission `organization_secrets` write.",
  idFormat: ["org", "secretName"],
  inputs: z.object({
    org: field(fields.name("org"), {
      description: "The organisation. A change replaces the secret.",
      replace: true,
    }),
    secretName: nameField("secretName", "secret"),
    value: secretValueField("the organisation"),
    ...visibilityFields("secret"),
  }),
  outputs: z.object(actionsOutputs("secret")),
  discovery: {
    scope: "org",
    what: ({ org }) => `Actions secrets of ${org}`,
    names: ["{org|module}-secret-{secretName}"],
    async list(c, { org = "" }): Promise<Found[]> {
      const secrets = await c.paginate(actionsRoutes.orgActionsSecrets.list, { org });
      return secrets.map((s) => ({ id: orgActionsSecretKind.formatId({ org, secretName: s.name }) }));
    },
    // Every secret holds a value, which the API never returns: the program reads it from config.
    needsSecret: () => true,
  },
});

export type OrgActionsSecretArgs = ArgsOf<typeof orgActionsSecretKind.inputs>;
export type OrgActionsSecretInputs = z.infer<typeof orgActionsSecretKind.inputs>;
export type OrgActionsSecretOutputs = OutputsOfKind<typeof orgActionsSecretKind>;

const KIND = orgActionsSecretKind.kind;

const parseId = (id: string) => {
  const { org, secretName } = orgActionsSecretKind.parseId(id);
  return { org, secretName };
};

const secrets = (org: string) =>
  secretApi(client(), actionsRoutes.orgActionsSecrets, orgScope(org, ACCESS.orgSecrets), KIND);

/** The ids of the repositories a "selected" secret is for, as the server lists them. */
async function selectedIds(org: string, secretName: string): Promise<number[]> {
  const repos = await client().paginate(actionsRoutes.orgActionsSecrets.repositories, {
    org,
    secret_name: secretName,
  });
  return repos.map((r) => r.id);
}

/** Names are case-insensitive on the platform. */
const comparable = lowerCased<OrgActionsSecretInputs>("org", "secretName");

/** The secret's settings, sent with every PUT (the whole desired state). */
function settings(inputs: OrgActionsSecretInputs): ApiActionsSecretWrite {
  return {
    visibility: inputs.visibility,
    ...(inputs.visibility === "selected"
      ? { selected_repository_ids: [...new Set(inputs.selectedRepositoryIds ?? [])] }
      : {}),
  };
}

function outputsOf(
  recorded: { org: string; value?: string | undefined },
  api: ApiActionsSecret,
  selected: number[] | undefined,
): OrgActionsSecretOutputs {
  return compact({
    org: recorded.org,
    secretName: api.name,
    value: recorded.value,
    visibility: knownValue(ACTIONS_VISIBILITIES, api.visibility ?? "", `${KIND} ${api.name}`, "visibility"),
    selectedRepositoryIds: selected,
    createdAt: api.created_at,
    updatedAt: api.updated_at,
  }) as OrgActionsSecretOutputs;
}

/** Sends the settings (and the value, sealed, when given), then reads back what state records. */
async function write(inputs: OrgActionsSecretInputs, plaintext: string | undefined) {
  const api = secrets(inputs.org);
  await api.put(inputs.secretName, plaintext, settings(inputs));
  // The PUT answers without the secret: one GET for its name, visibility and timestamps. The ids
  // just sent are the list: no read of it.
  const secret = await api.get(inputs.secretName);
  const selected = inputs.visibility === "selected" ? (inputs.selectedRepositoryIds ?? []) : undefined;
  return {
    id: orgActionsSecretKind.formatId({ org: inputs.org, secretName: secret.name }),
    outs: outputsOf(inputs, secret, selected),
  };
}

export const orgActionsSecretProvider = defineProvider<
  typeof orgActionsSecretKind.inputs,
  OrgActionsSecretOutputs
>(orgActionsSecretKind, {
  crossField: selectedOnly,
  comparable,
  recordedInputs: recordSecretValue,

  async create(inputs) {
    return write(inputs, plaintextFor(`${KIND} ${inputs.secretName}`, inputs.value, true));
  },

  async read(id, props) {
    const where = parseId(id);
    // A 404: the secret, its organisation, or the token's access to it is gone. Refresh drops it.
    const secret = await readOrGone(() => secrets(where.org).get(where.secretName));
    if (!secret) return {};
    const selected = secret.visibility === "selected" ? await selectedIds(where.org, secret.name) : undefined;
    const recorded = {
      org: props?.org ?? where.org,
      value: valueAfterRead(props, secret.updated_at),
    };
    return { id, props: outputsOf(recorded, secret, selected) };
  },

  async update(id, olds, news) {
    // A new digest (or an outside change) means the value must be sent; an unchanged one is sent
    // when at hand, with the settings.
    const plaintext = plaintextFor(`${KIND} ${id}`, news.value, news.value !== olds.value);
    return { outs: (await write(news, plaintext)).outs };
  },

  async delete(id) {
    const where = parseId(id);
    await deleteIgnoringGone(() => secrets(where.org).delete(where.secretName));
  },
});

/**
 * An Actions secret of an organisation: see its declaration, `orgActionsSecretKind`. Example:
 * `examples/actions/`.
 */
export class OrgActionsSecret extends resourceClass<OrgActionsSecretArgs, OrgActionsSecretOutputs>(
  orgActionsSecretProvider,
) {}
