"""Advertising platforms' Python SDKs: Google Ads and Meta's Marketing API.

Google Ads hands out a service per resource (`client.get_service("CampaignService")`) whose
`mutate_*` methods create, change or remove campaigns, budgets and ads; `search`/`search_stream`
read. Meta's ad objects write through `create_*` edges (`AdAccount(id).create_campaign(params=...)`)
and the `api_*`/`remote_*` methods; `obj.update({...})` only sets fields locally (facebook_business
22.0.0: `AbstractObject.update`), so it is not listed.
"""

from __future__ import annotations

from .rows import Row, methods

_GOOGLE_ADS = " ".join(f"google.ads.googleads.client.GoogleAdsClient{m}" for m in (
    "", ".load_from_dict", ".load_from_storage", ".load_from_env", ".load_from_string"))
_META_OBJECTS = " ".join(f"facebook_business.adobjects.{module}.{cls}" for module, cls in (
    ("adaccount", "AdAccount"), ("campaign", "Campaign"), ("adset", "AdSet"), ("ad", "Ad"),
    ("adcreative", "AdCreative"), ("page", "Page"), ("business", "Business"), ("customaudience", "CustomAudience")))

ROWS: tuple[Row, ...] = (
    *methods(_GOOGLE_ADS, "mutate*", "{name} (Google Ads)", True, "cloud"),
    *methods(_META_OBJECTS, "create_* api_create api_update api_delete remote_create remote_update remote_delete "
             "remote_save", "{name} (Meta Marketing API)", True, "cloud"),
)
