from drafterlint.front import console

console()
