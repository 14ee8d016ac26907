"""Model retry settings that cannot do what they say (SIB407, SIB408): a retry count with no
policy (the OpenAI Agents SDK runner never retries without one), and a status policy that lists a
status the same request always gets again. What a framework offers is its `RetrySpec`.
"""

from __future__ import annotations

from siblint.diagnostics import Loc
from siblint.effects.retries import PERMANENT_STATUSES
from siblint.facts import Call, Const, Mapping, ModuleFacts, Ref, Seq, Value
from siblint.frameworks import FRAMEWORKS
from siblint.retries import Finding, arg_value, bound, literal_none
from siblint.semantic import Scope, canonical, result_names


def model_retry_settings(facts: ModuleFacts) -> list[Finding]:
    """SIB407 reasons: model retry settings given to a settings object (`ModelSettings(retry=...)`)
    with a retry count and no policy: the runner never retries. Not judged alone: settings merged
    with others (`base.resolve(override)`; the runner also resolves an agent's settings under
    `RunConfig.model_settings`, so a policy set elsewhere in the module may complete them), and
    settings given a policy after construction."""
    found: list[tuple[Loc, Value | None, Value | None]] = []
    with_policy = False
    merged, patched = _merged_names(facts), _patched_names(facts)
    for scope_name, call in facts.all_calls():
        if not isinstance(call.func, Ref):
            continue
        fw, canon = canonical(call.func.name)
        if fw is None or canon not in fw.retries.settings_holders:
            continue
        scope = Scope(facts, scope_name)
        given = call.kwarg(fw.retries.settings_holders[canon])
        value = bound(scope, given)
        for mr_name, mr in fw.retries.model_settings.items():
            if isinstance(value, Mapping):
                retries, policy = value.get(mr.retries.keyword), value.get(mr.policy.keyword)
            elif isinstance(value, Call) and isinstance(value.func, Ref) and canonical(value.func.name)[1] == mr_name:
                retries, policy = arg_value(scope, value, mr.retries), arg_value(scope, value, mr.policy)
            else:
                continue
            names = {t for t, _ in _result_targets(facts, call)}
            if isinstance(given, Ref):
                names.add(given.text)
            if not _dead(retries, policy):
                with_policy = with_policy or not (policy is None or literal_none(policy))
            elif not names & (merged | patched):
                found.append((value.loc, retries, policy))
    if with_policy:
        return []
    return [Finding("no_policy", loc, facts.path, "", []) for loc, _, _ in found]


def _patched_names(facts: ModuleFacts) -> set[str]:
    """Names of settings objects given a policy after construction: `s.policy = p`, or a copy
    made with one (`dataclasses.replace(s, policy=p)`)."""
    keywords = {mr.policy.keyword for fw in FRAMEWORKS for mr in fw.retries.model_settings.values()}
    out = {a.target.rpartition(".")[0] for a in facts.assignments if a.target.rpartition(".")[2] in keywords}
    for _, call in facts.all_calls():
        if call.callee == "dataclasses.replace" and call.args and isinstance(call.args[0], Ref) \
                and any(k in keywords for k, _ in call.kwargs):
            out.add(call.args[0].text)
    return out


def _dead(retries: Value | None, policy: Value | None) -> bool:
    if isinstance(retries, Const) and retries.value == 0:
        return False  # an explicit opt-out (it also turns the client's own retries off)
    return policy is None or literal_none(policy)


def _result_targets(facts: ModuleFacts, call: Call) -> list[tuple[str, str]]:
    return result_names(facts).get(call.loc, [])


def _merged_names(facts: ModuleFacts) -> set[str]:
    """Names of settings objects that are merged with others (`base.resolve(override)`): the
    result may carry a policy from the other side."""
    mergers = {m for fw in FRAMEWORKS for m in fw.retries.settings_mergers}
    out: set[str] = set()
    for _, call in facts.all_calls():
        if not isinstance(call.func, Ref) or call.func.text.rpartition(".")[2] not in mergers or "." not in call.func.text:
            continue
        out.add(call.func.text.rpartition(".")[0])
        out.update(a.text for a in call.args if isinstance(a, Ref))
        out.update(v.text for _, v in call.kwargs if isinstance(v, Ref))
    return out


def permanent_status_retries(facts: ModuleFacts) -> list[Finding]:
    """SIB408 reasons: a status policy listing statuses that do not change on retry."""
    out: list[Finding] = []
    for scope_name, call in facts.all_calls():
        if not isinstance(call.func, Ref):
            continue
        fw, canon = canonical(call.func.name)
        param = fw.retries.status_policies.get(canon) if fw is not None else None
        if param is None:
            continue
        scope = Scope(facts, scope_name)
        statuses = arg_value(scope, call, param)
        if not isinstance(statuses, Seq):
            continue
        codes = sorted({v.value for v in (bound(scope, i) for i in statuses.items)
                        if isinstance(v, Const) and isinstance(v.value, int) and v.value in PERMANENT_STATUSES})
        if codes:
            out.append(Finding("permanent_status", call.loc, facts.path, call.func.text, [], ", ".join(map(str, codes))))
    return out
