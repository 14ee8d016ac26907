"""Issue trackers, code hosts and workspaces: Jira, GitHub, GitLab, Zendesk, Confluence and Notion pages,
the Canvas LMS, the HubSpot CRM, YNAB budgets, and Zotero libraries."""

from __future__ import annotations

from .rows import Row, methods

# HubSpot's CRM objects, through the API client's nested services
# (`client.crm.deals.basic_api.create(...)`, `batch_api.upsert(...)`); get_*, search and do_search read.
_HUBSPOT_WRITES = "create* update* archive* merge* upsert* send* purge gdpr_delete"

ROWS: tuple[Row, ...] = (
    *methods("hubspot.Client.create hubspot.Client hubspot.HubSpot", _HUBSPOT_WRITES, "{name} (HubSpot CRM)", True,
             "ticket"),
    # pyzotero: `zotero.Zotero(user, "user", key).create_items([...])`; `items`, `collections`, `top` read.
    *methods("pyzotero.zotero.Zotero", "create_items create_collections create_collection update_item update_items "
             "update_collection delete_item delete_collection addto_collection deletefrom_collection add_tags "
             "attachment_simple attachment_both upload_attachments", "{name} (Zotero)", True, "ticket"),
    # ... and what its resources do: `jira.issue(key).update(fields=...)`, `.delete()`, `.add_field_value(...)`.
    *methods("jira.JIRA", "create_issue create_issues add_comment transition_issue assign_issue create_issue_link "
             "add_watcher remove_watcher add_attachment add_worklog create_version create_project delete_project "
             "update delete add_field_value", "{name} (ticketing)", True, "ticket"),
    *methods("atlassian.Jira", "create_issue issue_create issue_create_or_update issue_add_comment issue_transition "
             "set_issue_status update_issue_field issue_update delete_issue", "{name} (ticketing)", True, "ticket"),
    # canvasapi: `Canvas(url, key).get_course(id).create_assignment({...})`, `assignment.edit(...)`,
    # `quiz.delete()`; `get_*` reads.
    *methods("canvasapi.Canvas", "create* edit delete* update* upload* enroll* submit* add* remove* set* publish* "
             "unpublish* conclude* reset* send* mark* reorder* duplicate* copy*", "{name} (Canvas LMS)", True,
             "ticket"),
    *methods("atlassian.Confluence", "create_page update_page update_or_create delete_page append_page",
             "{name} (ticketing)", True, "ticket"),
    *methods("github.Github", "create_issue create_pull create_comment create_issue_comment create_file update_file "
             "delete_file merge edit create_repo create_fork create_git_ref create_git_tag create_release create_hook "
             "add_to_collaborators remove_from_collaborators add_to_labels remove_from_labels set_labels delete "
             "add_to_assignees remove_from_assignees create_review_request delete_review_request create_review "
             "create_review_comment create_label create_milestone create_status create_deployment create_check_run "
             "create_git_blob create_git_tree create_git_commit create_secret delete_secret lock unlock create_gist",
             "{name} (ticketing)", True, "ticket"),
    *methods("gitlab.Gitlab", "create update delete save merge", "{name} (ticketing)", True, "ticket"),
    *methods("ghapi.all.GhApi ghapi.core.GhApi", "create create_* update update_* delete delete_* merge add_*",
             "{name} (ticketing)", True, "ticket"),
    *methods("zenpy.Zenpy", "create update delete", "{name} (ticketing)", True, "ticket"),
    # pysnow (ServiceNow's Table API): `client.resource(api_path="/table/incident").update(query=..., payload=...)`;
    # `get` reads.
    *methods("pysnow.Client", "create update delete custom", "{name} (ServiceNow)", True, "ticket"),
    # notion_client: `notion.pages.create(...)`, `notion.blocks.children.append(...)`; `query`/`retrieve` read.
    *methods("notion_client.Client", "create update append delete", "{name} (ticketing)", True, "ticket"),
    *methods("notion_client.AsyncClient", "create update append delete", "{name} (ticketing)", False, "ticket"),
    # YNAB's generated API client (`ynab`): transactions, categories, accounts and payees created,
    # updated or deleted in the user's budget; `get_*` reads.
    *methods(" ".join(f"ynab.{c}" for c in ("TransactionsApi", "ScheduledTransactionsApi", "CategoriesApi",
                                             "AccountsApi", "PayeesApi", "MonthsApi", "BudgetsApi")),
             "create_* update_* delete_* import_transactions", "{name} (YNAB)", True, "ticket"),
)
