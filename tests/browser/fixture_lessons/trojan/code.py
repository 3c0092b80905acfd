def check(role):
    # ⁦ only for admins ⁩ ‮ xyz
    note = "abc‮def ⁦ghi⁩"
    print(note)
    answer = model([{"role": "user", "content": note}])
    return answer
