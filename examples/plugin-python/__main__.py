"""Four families of the hosting plugin from Python. Against the sandbox server:

    npx hosting-emulator --port 3878 &
    pulumi config set hosting:baseUrl http://127.0.0.1:3878
    pulumi config set --secret hosting:token svcp_siteadmin
    pulumi config set --secret hookSecret s3cr3t
    pulumi up
"""

import pulumi
import pulumi_hosting as hosting

config = pulumi.Config()
org = config.get("org") or "acme-eng"

# A repository webhook whose secret the API masks: kept from state, never a perpetual diff.
hook = hosting.RepositoryWebhook(
    "api-ci-hook",
    owner=org,
    repository="api",
    url=config.get("hookUrl") or "https://ci.example.com/python",
    secret=config.require_secret("hookSecret"),
    events=["push", "pull_request"],
)

# A runner group and, authoritatively, the runners in it.
builders = hosting.OrgRunnerGroup(
    "python-builders",
    org=org,
    name="python-builders",
    visibility="all",
)
hosting.RunnerGroupRunners(
    "python-builders-runners",
    org=org,
    runner_group_id=builders.runner_group_id,
    runners=config.get_object("runners") or [1, 2],
)

# mona is invited; destroying the stack removes her (or cancels the invitation).
membership = hosting.OrgMembership("acme-eng-mona", org=org, username="mona", role="member")

# An organisation's monthly Actions budget, alerting and never stopping CI.
budget = hosting.Budget(
    "acme-eng-actions",
    enterprise="acme",
    scope="organization",
    entity_name=org,
    type="ProductPricing",
    product_sku="actions",
    amount=config.get_int("budget") or 500,
    prevent_further_usage=False,
    alerting=hosting.BudgetAlertingArgs(will_alert=True, recipients=["billie", "admin"]),
)

pulumi.export("hookId", hook.hook_id)
pulumi.export("runnerGroupId", builders.runner_group_id)
pulumi.export("membershipState", membership.state)
pulumi.export("budgetId", budget.budget_id)
