def child_tools(tools):
    """宿主白名单生成独立注册表；不继承运行、清单和再次委派能力。"""
    selected = {}
    for name in ('read_file',):
        if name not in tools:
            raise ValueError('缺少只读工具：' + name)
        selected[name] = deepcopy(tools[name])
    return selected


def run_subagent(task, tools, ask, max_calls=4, emit=print):
    """每次调用创建新历史；同步等待，复用原循环的停止与协议判断。"""
    if type(task) is not str or not task.strip() or len(task) > 600:
        raise ValueError('子任务必须是1到600字符的文本。')
    if type(max_calls) is not int or not 1 <= max_calls <= 8:
        raise ValueError('子循环预算必须是1到8次模型请求。')
    restricted = child_tools(tools)
    entries, warnings = [], []
    def execute(call):
        hooks = {'before': [lambda p: _s04.audit_event('before', p, entries)],
                 'after': [lambda p: _s04.audit_event('after', p, entries)]}
        report = _s04.execute_hooked(call, restricted, lambda *_: False, hooks)
        warnings.extend(report['warnings'])
        return report['result']
    outcome = run_loop(lambda history: ask(history, restricted), execute,
                       max_calls=max_calls, emit=emit, question=task.strip())
    return outcome


def task_result(call, outcome):
    """父循环只获得关联ID、停止状态和有界结论；子历史保留在宿主。"""
    status = outcome['status']
    text = outcome['text']
    failed = status != 'answered'
    if len(text) > 1200:
        text = text[:1200] + '（结论过长，已截断；请缩小子任务）'
        failed = True
    payload = {'status': status, 'summary': text, 'calls': outcome['calls']}
    return {'type': 'tool_result', 'tool_use_id': call['id'],
            'content': json.dumps(payload, ensure_ascii=False), 'is_error': failed}
