export { listSkills, getSkill, loadSkill, readSkillFile } from './skills'
export type { SkillsClient } from './skills'
export { SKILLS_EXTENSION, SKILL_LIMITS } from './entry'
export type * from './types'
